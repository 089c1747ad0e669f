/**
 * The questions a tool can put to the client, as `{method, params}` objects: the form both eras
 * share (2026-07-28 puts them in `inputRequests`, legacy sessions send them as JSON-RPC
 * requests), and the minimal shape check of each answer.
 */
import { isObject, type JsonObject } from '../jsonrpc.ts';

/** A server-to-client request without its JSON-RPC envelope. */
export interface Question {
  readonly method: string;
  readonly params: JsonObject;
}

/** A form-mode `elicitation/create`. */
export function formElicitation(message: string, requestedSchema: JsonObject): Question {
  return { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } };
}

/** A URL-mode `elicitation/create`; the client only shows the URL, never fetches it. */
export function urlElicitation(elicitationId: string, url: string, message: string): Question {
  return { method: 'elicitation/create', params: { mode: 'url', url, message, elicitationId } };
}

/** The one tool `sample` offers the client's model when asked `withTools`. */
export const WEATHER_TOOL: JsonObject = {
  name: 'get_weather',
  description: 'Gets the current weather in a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  },
};

/** A `sampling/createMessage` of one user text, optionally offering {@link WEATHER_TOOL}. */
export function sampling(prompt: string, maxTokens: number, withTools = false): Question {
  const params: JsonObject = {
    messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
    maxTokens,
  };
  if (withTools) {
    params['tools'] = [WEATHER_TOOL];
    params['toolChoice'] = { mode: 'auto' };
  }
  return { method: 'sampling/createMessage', params };
}

/** A `roots/list`. */
export const LIST_ROOTS: Question = { method: 'roots/list', params: {} };

const ACTIONS: readonly unknown[] = ['accept', 'decline', 'cancel'];

/** What is wrong with `answer` as the result of `method`, or undefined when it will do. */
export function answerProblem(method: string, answer: JsonObject): string | undefined {
  switch (method) {
    case 'elicitation/create':
      if (!ACTIONS.includes(answer['action'])) return 'has no action accept, decline or cancel';
      if (answer['content'] !== undefined && !isObject(answer['content'])) {
        return 'has a content that is not an object';
      }
      return undefined;
    case 'sampling/createMessage':
      return answer['content'] === undefined ? 'has no content' : undefined;
    case 'roots/list':
      return Array.isArray(answer['roots']) ? undefined : 'has no roots array';
    default:
      return undefined;
  }
}
