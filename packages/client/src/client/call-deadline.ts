/**
 * Every call's deadline is built here: the call's own `timeoutMs`, `maxTimeoutMs` and `signal`,
 * the client's options for what the call leaves out.
 */

import { usageError } from '../core/call-boundary.ts';
import { Deadline } from '../core/deadline.ts';
import type { ErrorContext } from '../core/errors.ts';

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
  checkLimits(call);
  return new Deadline({
    timeoutMs: call.timeoutMs ?? client.timeoutMs,
    maxTimeoutMs: call.maxTimeoutMs ?? client.maxTimeoutMs,
    signal: call.signal,
    context,
  });
}

const LIMITS = ['timeoutMs', 'maxTimeoutMs'] as const;

/**
 * A call's own limits are the caller's: wrong ones are a TypeError that names them. Checked for
 * every deadline, and by the methods a cache may answer without one.
 */
export function checkLimits(call: CallLimits): void {
  for (const key of LIMITS) {
    const value = call[key];
    if (
      value !== undefined &&
      !(typeof value === 'number' && value > 0 && Number.isFinite(value))
    ) {
      throw usageError(`expected \`${key}\` to be a positive number, got ${String(value)}`);
    }
  }
  const { signal } = call;
  // Any AbortSignal will do, from this realm or another: what it does is what counts.
  if (
    signal !== undefined &&
    (typeof signal !== 'object' ||
      signal === null ||
      typeof signal.aborted !== 'boolean' ||
      typeof signal.addEventListener !== 'function')
  ) {
    throw usageError(`expected \`signal\` to be an AbortSignal, got ${kindOf(signal)}`);
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return typeof value === 'object' ? (value.constructor?.name ?? 'an object') : typeof value;
}
