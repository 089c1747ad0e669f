/**
 * What happens to an error where a call ends: what it says about the call as a whole (`settle`),
 * a copy for each call one failure ends (`onePerCall`), and what may leave a public method
 * (`typedError`: a toolwire error, or a TypeError the caller caused). The error classes are in
 * errors.ts; these stay in core because the channels and the pipe settle at their own boundaries.
 */
import { type ErrorContext, InternalError, isMcpError, McpError } from './errors.ts';

/**
 * Settles what a call's error says about the call as a whole: it may have run if any request of
 * the call may have reached the server, and it is retryable only if its failure was transient and
 * sending it again cannot run it twice. Settling twice only ever lowers `retryable`.
 */
export function settle(
  error: unknown,
  call: { mayHaveRun: boolean; idempotent: boolean },
): unknown {
  if (!(error instanceof McpError)) return error;
  const settled = error as { mayHaveRun: boolean; retryable: boolean };
  settled.mayHaveRun = error.mayHaveRun || call.mayHaveRun;
  settled.retryable = error.retryable && (call.idempotent || !settled.mayHaveRun);
  return error;
}

/**
 * The error one of several calls gets when one failure ends them all (a server process exits
 * under every call waiting on it, a shared token refresh fails): a copy each, since settle()
 * writes on it what that call did, and one call's verdict must not become another's.
 */
export function onePerCall<T>(error: T): T {
  if (!(error instanceof McpError)) return error;
  // A real Error underneath, so it is inspected, logged and stack-traced as one.
  const copy = Object.setPrototypeOf(new Error(error.message), Object.getPrototypeOf(error));
  const { stack: _, ...fields } = Object.getOwnPropertyDescriptors(error);
  Object.defineProperties(copy, fields);
  copy.stack = error.stack;
  return copy as T;
}

/** Anything thrown, as an Error: background failures are reported, and a report needs one. */
export function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

const usage = Symbol.for('toolwire.usage');

/** A TypeError the caller caused (a handle for another URL, say): thrown as it is. */
export function usageError(message: string): TypeError {
  return Object.assign(new TypeError(message), { [usage]: true });
}

/**
 * What may leave a public method: a toolwire error, or a TypeError the caller caused. Anything
 * else is a bug, and becomes an InternalError carrying it.
 */
export function typedError(error: unknown, context: ErrorContext): unknown {
  if (isMcpError(error)) return error;
  if (error instanceof TypeError && (error as { [usage]?: boolean })[usage]) return error;
  return new InternalError(error, context);
}
