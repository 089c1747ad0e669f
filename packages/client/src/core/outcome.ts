/**
 * The narrow waist between the dialects and the call loop. Every dialect answers a call in one
 * of four ways; nothing above `dialects/` needs to know which dialect it was.
 */
import { type ErrorContext, MalformedMessageError, type McpError } from './errors.ts';
import { isObject, type JsonObject } from './jsonrpc.ts';
import type { Revalidation } from './revalidation.ts';
import type { Tool } from './types.ts';

/** One request the client makes: a JSON-RPC method with its params. */
export interface Operation {
  method: string;
  params?: JsonObject | undefined;
  /** May be sent again after the server may have seen it. */
  idempotent: boolean;
  /** The tool's name, for `tools/call`: it goes into error messages. */
  tool?: string | undefined;
  /** The tool's definition, for `tools/call`: a dialect may mirror its marked parameters. */
  definition?: Tool | undefined;
  /** The caller asks for the call to run as a task where the tool allows it (2025-11-25). */
  task?: boolean | undefined;
  /** A list's first page, revalidated by its ETag where the channel is HTTP. */
  revalidation?: Revalidation | undefined;
}

/**
 * One question the server puts to the client (elicitation, sampling, roots): on a legacy stream
 * a request of its own, at 2026-07-28 one of a result's `inputRequests`, keyed by the server.
 */
export interface Question {
  method: string;
  params?: JsonObject | undefined;
}

/** What a dialect knows of work the server has not finished (a task, a promise token). */
export interface PendingHandle {
  kind: 'task' | 'promise';
  id: string;
  /** How long the server keeps it, from now, if it said. */
  ttlMs?: number | undefined;
}

/** Where deferred work stands, as a poll found it. */
export type PendingStatus = 'working' | 'input_required';

export type Outcome =
  /** The final result of the call. */
  | { kind: 'complete'; result: JsonObject }
  /**
   * The server needs answers before it can go on. By default the call is sent again with the
   * answers as `inputResponses` and `state` echoed verbatim (2026-07-28); a dialect that answers
   * another way says how with `retry`.
   */
  | {
      kind: 'input';
      questions: Record<string, Question>;
      state?: string | undefined;
      retry?: ((responses: Record<string, JsonObject>) => Operation) | undefined;
    }
  /**
   * The server accepted the work and will finish it later: ask again after `retryAfterMs` (the
   * server's poll interval or estimate). A task that needs input names its `questions`; the
   * answers go back through the dialect's `provide`.
   */
  | {
      kind: 'pending';
      handle: PendingHandle;
      retryAfterMs?: number | undefined;
      status?: PendingStatus | undefined;
      message?: string | undefined;
      questions?: Record<string, Question> | undefined;
    }
  /** The call failed on the server's side with a protocol error. */
  | { kind: 'failure'; error: McpError };

/**
 * The Outcome of one look at deferred work: never `input`. Deferred work that needs answers is
 * `pending` with its questions, answered through the dialect's `provide`.
 */
export type PollOutcome = Exclude<Outcome, { kind: 'input' }>;

/**
 * The server's questions, checked: each must be a request (an object with a string `method`, and
 * object `params` if any). Returns what is wrong otherwise; the handlers never see a bad one.
 */
export function questionsOf(value: unknown): Record<string, Question> | string {
  if (!isObject(value)) return 'inputRequests that is not an object';
  for (const [key, request] of Object.entries(value)) {
    if (!isObject(request) || typeof request['method'] !== 'string') {
      return `input request "${key}" that is not a request`;
    }
    if (request['params'] !== undefined && !isObject(request['params'])) {
      return `input request "${key}" whose params are not an object`;
    }
  }
  return value as Record<string, Question>;
}

/** A result that does not say what its kind needs: a failure quoting the start of it. */
export function malformedResult(
  detail: string,
  result: JsonObject,
  where: ErrorContext,
): Extract<Outcome, { kind: 'failure' }> {
  return {
    kind: 'failure',
    error: new MalformedMessageError(detail, {
      ...where,
      bodyExcerpt: JSON.stringify(result).slice(0, 200),
    }),
  };
}

/**
 * What reads an answer wanted as it is: `dialect.send(operation, context, asIs)` for the Outcome,
 * `channel.request(message, call, asIs)` for the response.
 */
export function asIs<T>(value: T): T {
  return value;
}
