/**
 * Deferred work as a value an application can keep: a handle names the server, the dialect and
 * the task or promise token, and is plain JSON, so it survives a crash or crosses to another
 * process; `client.redeem(handle)` picks the wait up again. A store sees each handle when it is
 * issued and when it is done with.
 */
import type { CallHandle } from '../core/types.ts';

export type { CallHandle } from '../core/types.ts';

/**
 * Where a client puts the handles of calls it is waiting on: `save` when the server defers a
 * call (again when an MCP-lite promise is renewed with a new token), `delete` when the result, or
 * a definite failure, is in. A call interrupted by its deadline or by `close()` is not deleted,
 * so another client can redeem it. A store that throws is reported as a `warning`; the call goes on.
 */
export interface HandleStore {
  save(handle: CallHandle): void | Promise<void>;
  delete(handle: CallHandle): void | Promise<void>;
}

/** The default store: in memory, for this process only. `list()` leaves out expired handles. */
export interface MemoryHandleStore extends HandleStore {
  list(): CallHandle[];
}

export function memoryHandleStore(): MemoryHandleStore {
  const handles = new Map<string, CallHandle>();
  const key = (handle: CallHandle) => `${handle.url} ${handle.kind} ${handle.id}`;
  return {
    save(handle) {
      handles.set(key(handle), { ...handle });
    },
    delete(handle) {
      handles.delete(key(handle));
    },
    list() {
      const now = Date.now();
      for (const [name, handle] of handles) {
        if (handle.expiresAt !== undefined && Date.parse(handle.expiresAt) < now)
          handles.delete(name);
      }
      return [...handles.values()].map((handle) => ({ ...handle }));
    },
  };
}

/** A handle as read back from storage, checked field by field; a TypeError says what is wrong. */
export function checkHandle(value: unknown): CallHandle {
  const handle = value as Partial<Record<keyof CallHandle, unknown>> | null;
  if (typeof handle !== 'object' || handle === null) {
    throw new TypeError('expected a call handle, an object');
  }
  if (handle.kind !== 'task' && handle.kind !== 'promise') {
    throw new TypeError(`expected a handle's kind to be 'task' or 'promise'`);
  }
  for (const field of ['id', 'url', 'dialect', 'tool', 'issuedAt'] as const) {
    if (typeof handle[field] !== 'string' || handle[field] === '') {
      throw new TypeError(`expected a handle's ${field} to be a non-empty string`);
    }
  }
  if (handle.expiresAt !== undefined && typeof handle.expiresAt !== 'string') {
    throw new TypeError(`expected a handle's expiresAt to be a string`);
  }
  return handle as CallHandle;
}
