/**
 * Every call's deadline is built here: the call's own `timeoutMs`, `maxTimeoutMs` and `signal`,
 * the client's options for what the call leaves out.
 */
import { Deadline } from './deadline.ts';
import type { ErrorContext } from './errors.ts';

/** What a call may say about its own deadline (every method's `RequestOptions`). */
export interface CallLimits {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  maxTimeoutMs?: number | undefined;
}

export function callDeadline(
  call: CallLimits,
  client: { timeoutMs: number; maxTimeoutMs: number },
  context: ErrorContext,
): Deadline {
  return new Deadline({
    timeoutMs: call.timeoutMs ?? client.timeoutMs,
    maxTimeoutMs: call.maxTimeoutMs ?? client.maxTimeoutMs,
    signal: call.signal,
    context,
  });
}
