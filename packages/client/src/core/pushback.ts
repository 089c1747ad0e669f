/**
 * A server's "slow down" (a 429's Retry-After), heard where a request fails and told to whoever
 * paces the whole call's server. Kept beside the call's deadline, which every layer has, so the
 * wire needs to know nothing of the policy above it; looked up only when a request fails.
 */
import type { Deadline } from './deadline.ts';

const listeners = new WeakMap<Deadline, (retryAfterMs: number) => void>();

/** `listener` hears every pushback a request of the call under `deadline` meets. */
export function onPushback(deadline: Deadline, listener: (retryAfterMs: number) => void): void {
  listeners.set(deadline, listener);
}

/** The server asked the call under `deadline` to wait `retryAfterMs` before its next request. */
export function pushback(deadline: Deadline, retryAfterMs: number): void {
  listeners.get(deadline)?.(retryAfterMs);
}
