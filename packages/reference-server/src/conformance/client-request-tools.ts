/**
 * Conformance tools that ask the client something mid-call: `sampling/createMessage` and
 * `elicitation/create` (scenarios tools-call-sampling, tools-call-elicitation,
 * elicitation-sep1034-defaults, elicitation-sep1330-enums). Each request goes on the call's own
 * stream, and only to a client that declared the capability in `initialize`, as the spec asks.
 */
import { errorResult, textResult } from '../content.ts';
import type { RequestContext } from '../context.ts';
import { isObject, type JsonObject } from '../jsonrpc.ts';
import type { ToolDefinition } from '../tools.ts';
import { DEFAULTS_SCHEMA, ENUMS_SCHEMA, USER_SCHEMA } from './elicitation-schemas.ts';

/** How long a tool waits for the client's answer before it reports the silence. */
const ANSWER_TIMEOUT_MS = 10_000;

/** Sends `method` to the client and hands back its result, or the error result a tool returns. */
async function askClient(
  ctx: RequestContext,
  capability: 'sampling' | 'elicitation',
  method: string,
  params: JsonObject,
): Promise<{ result: JsonObject } | { failure: JsonObject }> {
  if (ctx.session?.clientCapabilities[capability] === undefined) {
    return { failure: errorResult(`the client did not declare the ${capability} capability`) };
  }
  const reply = await ctx.requestClient(method, ANSWER_TIMEOUT_MS, params);
  switch (reply.kind) {
    case 'response': {
      const { result, error } = reply.response;
      if (error === undefined && isObject(result)) return { result };
      return {
        failure: errorResult(`the client answered ${method} with ${JSON.stringify(error)}`),
      };
    }
    case 'unreachable':
      return { failure: errorResult(`no open stream to send ${method} on`) };
    default:
      return { failure: errorResult(`the client did not answer ${method} in time`) };
  }
}

/** A tool that elicits `schema` with `message` and reports what the user did. */
function elicitationTool(
  name: string,
  description: string,
  inputSchema: JsonObject,
  ask: (args: JsonObject) => { message: string; requestedSchema: JsonObject },
  summary: (result: JsonObject) => string,
): ToolDefinition {
  return {
    name,
    description,
    inputSchema,
    run: async (args, ctx) => {
      const answer = await askClient(ctx, 'elicitation', 'elicitation/create', ask(args));
      return 'failure' in answer ? answer.failure : textResult(summary(answer.result));
    },
  };
}

function outcome(result: JsonObject): string {
  return `action=${String(result['action'])}, content=${JSON.stringify(result['content'] ?? {})}`;
}

const NO_ARGUMENTS: JsonObject = { type: 'object', properties: {} };

export const CLIENT_REQUEST_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'test_sampling',
    description: 'Asks the client to sample an LLM with the given prompt and returns its answer.',
    inputSchema: {
      type: 'object',
      properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM.' } },
      required: ['prompt'],
    },
    run: async (args, ctx) => {
      const answer = await askClient(ctx, 'sampling', 'sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: args['prompt'] } }],
        maxTokens: 100,
      });
      if ('failure' in answer) return answer.failure;
      const content = answer.result['content'];
      const reply = isObject(content) && typeof content['text'] === 'string' ? content['text'] : '';
      return textResult(`LLM response: ${reply}`);
    },
  },
  elicitationTool(
    'test_elicitation',
    'Asks the user (through the client) for a username and an email address.',
    {
      type: 'object',
      properties: { message: { type: 'string', description: 'The message to show the user.' } },
      required: ['message'],
    },
    (args) => ({ message: String(args['message']), requestedSchema: USER_SCHEMA }),
    (result) => `User response: ${outcome(result)}`,
  ),
  elicitationTool(
    'test_elicitation_sep1034_defaults',
    'Elicits one field of each primitive type, each with a default value (SEP-1034).',
    NO_ARGUMENTS,
    () => ({
      message: 'Please review the defaults and accept them',
      requestedSchema: DEFAULTS_SCHEMA,
    }),
    (result) => `Elicitation completed: ${outcome(result)}`,
  ),
  elicitationTool(
    'test_elicitation_sep1330_enums',
    'Elicits one field of each enum schema variant: titled or not, single or multi-select (SEP-1330).',
    NO_ARGUMENTS,
    () => ({
      message: 'Please select options from the enum fields',
      requestedSchema: ENUMS_SCHEMA,
    }),
    (result) => `Elicitation completed: ${outcome(result)}`,
  ),
];
