/**
 * MCP-lite's `elicitation` answer, and how an answer to it goes back. The seed defines neither a
 * payload nor a reply channel, and its servers keep no state: the request is surfaced as an MCP
 * form `elicitation/create` (so one set of handlers serves every dialect), and the answer goes
 * back as the same `tools/call` again, with the accepted fields merged into its arguments.
 */
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';
import type { Outcome } from '../../core/outcome.ts';

/** The key the one request is filed under in the `input` outcome. */
export const ELICITATION_KEY = 'elicitation';

const FALLBACK_MESSAGE = 'The server needs more information to go on.';

/**
 * Where the server says what it needs: an `elicitation` object in the result or in its `_meta`,
 * or `message` / `requestedSchema` on the result itself. Without a schema, an open form.
 */
export function elicitationOutcome(result: JsonObject, meta: JsonObject): Outcome {
  const source = [result['elicitation'], meta['elicitation'], result].find(
    (candidate): candidate is JsonObject =>
      isObject(candidate) && ('message' in candidate || 'requestedSchema' in candidate),
  );
  const message = stringOf(source?.['message']) ?? textOf(result['content']) ?? FALLBACK_MESSAGE;
  const schema = source?.['requestedSchema'];
  return {
    kind: 'input',
    questions: {
      [ELICITATION_KEY]: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message,
          requestedSchema: isObject(schema) ? schema : { type: 'object', properties: {} },
        },
      },
    },
  };
}

export type Answered =
  /** Call again with these params. */
  | { kind: 'call'; params: JsonObject }
  /** The user said no: the call ends here, as a tool failure the model can read. */
  | { kind: 'declined'; result: JsonObject };

/**
 * The params of a call that carries answers (`inputResponses`, MRTR-shaped: `{ [key]: { action,
 * content } }`): accepted content merged over the original arguments, the answer fields gone.
 */
export function answered(params: JsonObject): Answered | undefined {
  const responses = params['inputResponses'];
  if (!isObject(responses)) return undefined;
  const { inputResponses: _responses, requestState: _state, ...rest } = params;
  const answer = responses[ELICITATION_KEY] ?? Object.values(responses)[0];
  const action = isObject(answer) ? answer['action'] : undefined;
  if (action !== 'accept') {
    const why = action === 'decline' ? 'declined' : 'cancelled';
    return {
      kind: 'declined',
      result: {
        content: [
          { type: 'text', text: `The user ${why} the server's request for more information.` },
        ],
        isError: true,
      },
    };
  }
  const content = isObject(answer) && isObject(answer['content']) ? answer['content'] : {};
  const args = isObject(rest['arguments']) ? rest['arguments'] : {};
  return { kind: 'call', params: { ...rest, arguments: { ...args, ...content } } };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The text blocks (or plain strings) of a content array, joined. */
function textOf(content: unknown): string | undefined {
  if (!Array.isArray(content)) return stringOf(content);
  const texts = content.flatMap((item) => {
    if (typeof item === 'string') return [item];
    return isObject(item) && typeof item['text'] === 'string' ? [item['text']] : [];
  });
  return stringOf(texts.join('\n'));
}
