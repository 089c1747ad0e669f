/**
 * Asking in 2026-07-28 (MRTR): the questions go back as an `input_required` result, and the
 * client's retry brings the answers. Everything gathered so far rides in the signed
 * requestState, so the server keeps nothing between attempts.
 */
import type { RequestContext } from '../context.ts';
import { ErrorCode, isObject, type JsonObject, RpcError } from '../jsonrpc.ts';
import { inputResponse, signState, verifiedState } from '../modern/mrtr.ts';
import { answerProblem, type Question } from './requests.ts';

/** Questions asked together, by the key their answers come back under. */
export type Step = Readonly<Record<string, Question>>;

/** Where a run of steps stands: the step being asked, finished steps, answers of this step. */
interface Progress {
  next: number;
  answers: JsonObject[];
  partial: JsonObject;
}

/** An `input_required` result; `questions` undefined sends only the state (load shedding). */
export function inputRequired(questions: Step | undefined, requestState: string): JsonObject {
  const result: JsonObject = { resultType: 'input_required', requestState };
  if (questions !== undefined) result['inputRequests'] = { ...questions };
  return result;
}

/** The client's answer to `key`, checked for the shape `method` answers have (-32602 if not). */
export function checkedResponse(
  ctx: RequestContext,
  key: string,
  method: string,
): JsonObject | undefined {
  const response = inputResponse(ctx, key);
  if (response === undefined) return undefined;
  const problem = answerProblem(method, response);
  if (problem !== undefined) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: inputResponses.${key} ${problem}`);
  }
  return response;
}

function progressOf(state: JsonObject): Progress {
  const { next, answers, partial } = state;
  if (
    typeof next !== 'number' ||
    !Array.isArray(answers) ||
    !answers.every(isObject) ||
    !isObject(partial)
  ) {
    // Only this server signs states, so a bad shape is a server bug, not the client's.
    throw new RpcError(ErrorCode.InternalError, 'requestState has an unexpected shape');
  }
  return { next, answers, partial: { ...partial } };
}

function pick(step: Step, keys: readonly string[]): Step {
  return Object.fromEntries(keys.flatMap((key) => (step[key] ? [[key, step[key]]] : [])));
}

/**
 * Runs `steps` one `input_required` at a time: the answers of every step (by key) once the last
 * one is answered, else the `input_required` result to send now. A retry that leaves out some
 * answers is asked only for those again; `shed` makes the first attempt carry no questions at
 * all (only the state), as a server shedding load may.
 */
export function askInSteps(
  ctx: RequestContext,
  scope: string,
  steps: readonly Step[],
  shed: boolean,
): { answers: JsonObject[] } | { reply: JsonObject } {
  const state = verifiedState(ctx, scope);
  if (state === undefined) {
    const fresh: Progress = { next: 0, answers: [], partial: {} };
    const first = shed ? undefined : steps[0];
    return { reply: inputRequired(first, signState(ctx, scope, { ...fresh })) };
  }
  const progress = progressOf(state);
  const step = steps[progress.next];
  if (step === undefined)
    throw new RpcError(ErrorCode.InternalError, 'requestState is past the end');
  for (const [key, question] of Object.entries(step)) {
    const response = checkedResponse(ctx, key, question.method);
    if (response !== undefined) progress.partial[key] = response;
  }
  const missing = Object.keys(step).filter((key) => progress.partial[key] === undefined);
  if (missing.length > 0) {
    return { reply: inputRequired(pick(step, missing), signState(ctx, scope, { ...progress })) };
  }
  const answers = [...progress.answers, progress.partial];
  const following = steps[progress.next + 1];
  if (following === undefined) return { answers };
  const advanced: Progress = { next: progress.next + 1, answers, partial: {} };
  return { reply: inputRequired(following, signState(ctx, scope, { ...advanced })) };
}
