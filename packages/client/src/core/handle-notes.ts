/**
 * What an error says about the deferred work it interrupted: the handle it carries (hidden from
 * logs) and how a message names it (its id cut short, since a handle's id works as a bearer
 * token). Here, below errors.ts, because the error classes use both; the handle store is
 * call/handles.ts.
 */
import type { CallHandle } from './types.ts';

/** Records on `error` the deferred work it interrupted; returns the error. */
export function withHandle<E extends Error>(error: E, handle: CallHandle | undefined): E {
  Object.defineProperty(error, 'handle', { value: handle, enumerable: false, configurable: true });
  return error;
}

/** Deferred work as far as a message needs it. */
export type Deferred = Pick<CallHandle, 'kind' | 'id'>;

/** "task 3f2a…": a handle in a message, its id cut short because it works as a bearer token. */
export function describeHandle(handle: Deferred): string {
  return `${handle.kind} ${redact(handle.id)}`;
}

/** The first characters of a token or task id, never the whole of it. */
export function redact(id: string): string {
  const shown = Math.min(6, Math.floor(id.length / 3));
  return `${id.slice(0, shown)}… (${id.length} chars)`;
}
