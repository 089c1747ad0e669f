/**
 * Asking in a legacy session (2024-11-05 .. 2025-11-25): the question goes to the client as a
 * JSON-RPC request on the call's own stream, and the tool waits for the POSTed answer.
 */
import { errorResult } from '../content.ts';
import type { RequestContext } from '../context.ts';
import { isObject, type JsonObject } from '../jsonrpc.ts';
import { answerProblem, type Question } from './requests.ts';

/** How long a tool waits for the client's answer: a person may be typing it. */
export const ANSWER_TIMEOUT_MS = 60_000;

/** The revision that added `mode` to elicitation (and URL mode with it). */
const MODES_SINCE = '2025-11-25';

/** How one question ended: the client's result, a tool error result, or withdrawn by us. */
export type Asked =
  | { readonly answer: JsonObject }
  | { readonly failure: JsonObject }
  | { readonly cancelled: true };

/** Earlier revisions know only form elicitation, without the `mode` field. */
function forSession(ctx: RequestContext, question: Question): JsonObject {
  const { params } = question;
  const version = ctx.session?.version ?? '';
  if (question.method !== 'elicitation/create' || params['mode'] !== 'form') return params;
  if (version >= MODES_SINCE) return params;
  const { mode: _mode, ...older } = params;
  return older;
}

function describeError(error: unknown): string {
  if (!isObject(error)) return JSON.stringify(error);
  return `error ${String(error['code'])}: ${String(error['message'])}`;
}

/** Sends `question` and waits for its answer; `cancel` withdraws it (notifications/cancelled). */
export async function askOnce(
  ctx: RequestContext,
  question: Question,
  cancel?: AbortSignal,
): Promise<Asked> {
  const { method } = question;
  const reply = await ctx.requestClient(
    method,
    ANSWER_TIMEOUT_MS,
    forSession(ctx, question),
    cancel,
  );
  switch (reply.kind) {
    case 'response': {
      const { result, error } = reply.response;
      if (error !== undefined) {
        return {
          failure: errorResult(`the client answered ${method} with ${describeError(error)}`),
        };
      }
      if (!isObject(result)) {
        return { failure: errorResult(`the client's answer to ${method} is not an object`) };
      }
      const problem = answerProblem(method, result);
      if (problem !== undefined) {
        return { failure: errorResult(`the client's answer to ${method} ${problem}`) };
      }
      return { answer: result };
    }
    case 'cancelled':
      return { cancelled: true };
    case 'unreachable':
      return { failure: errorResult(`no open stream to send ${method} on`) };
    case 'timeout':
      return {
        failure: errorResult(
          `the client did not answer ${method} within ${ANSWER_TIMEOUT_MS / 1000} s`,
        ),
      };
    default:
      return { failure: errorResult(`the call ended before the client answered ${method}`) };
  }
}

/**
 * Sends every question of `questions` before awaiting any answer (so they are in flight
 * together), then returns the answers by key, or the first failure as the tool's result.
 */
export async function askTogether(
  ctx: RequestContext,
  questions: Readonly<Record<string, Question>>,
): Promise<{ answers: JsonObject } | { failure: JsonObject }> {
  const entries = Object.entries(questions);
  const replies = await Promise.all(entries.map(([, question]) => askOnce(ctx, question)));
  const answers: JsonObject = {};
  for (const [index, reply] of replies.entries()) {
    if ('failure' in reply) return reply;
    if ('answer' in reply) answers[entries[index]?.[0] ?? String(index)] = reply.answer;
  }
  return { answers };
}
