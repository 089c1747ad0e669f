/**
 * Handles of deferred work in Redis, where any worker can find them: a task started by a worker
 * that died is redeemed by another. Each handle is one key that expires with the handle (its
 * `expiresAt`, or `handleTtlMs` when the server gave none); the value is sealed by `secrets`,
 * since whoever holds a task id or a promise token gets the result.
 */
import { type CallHandle, checkHandle, type HandleStore } from '@toolwire/client';
import type { Connection } from './connection.ts';
import { keyOf } from './keys.ts';
import { type Secrets, seal, unseal } from './secrets.ts';

export interface RedisHandleStore extends HandleStore {
  save(handle: CallHandle): Promise<void>;
  delete(handle: CallHandle): Promise<void>;
  /** Every handle still stored (for `url` only, when given): what a worker picks up after a crash. */
  list(options?: { url?: string }): Promise<CallHandle[]>;
}

export interface HandleStoreConfig {
  connection: Connection;
  prefix: string;
  secrets: Secrets;
  /** How long a handle without an `expiresAt` is kept. */
  ttlMs: number;
}

const SCAN_BATCH = '200';

export function redisHandleStore(config: HandleStoreConfig): RedisHandleStore {
  const { connection, prefix, secrets } = config;
  const keyFor = (handle: CallHandle) =>
    keyOf(prefix, 'handle', handle.url, handle.kind, handle.id);
  return {
    async save(handle) {
      const expiresAt =
        handle.expiresAt === undefined ? Date.now() + config.ttlMs : Date.parse(handle.expiresAt);
      // A handle the server already forgot is not worth keeping.
      if (!(expiresAt > Date.now())) return;
      const value = await seal(secrets, handle);
      await connection.run('handles.save', [
        'SET',
        keyFor(handle),
        value,
        'PXAT',
        String(expiresAt),
      ]);
    },
    async delete(handle) {
      await connection.run('handles.delete', ['DEL', keyFor(handle)]);
    },
    async list(options = {}) {
      const keys = await scan(connection, `${prefix}handle:*`);
      if (keys.length === 0) return [];
      const values = await connection.run<Array<string | null>>('handles.list', ['MGET', ...keys]);
      const handles: CallHandle[] = [];
      for (const value of values) {
        // Gone between the scan and the read: redeemed meanwhile.
        if (value === null) continue;
        const handle = checkHandle(await unseal(secrets, 'handles.list', value));
        if (options.url === undefined || handle.url === options.url) handles.push(handle);
      }
      return handles;
    },
  };
}

/** Every key matching `pattern`, by SCAN (never KEYS, which blocks the server). */
async function scan(connection: Connection, pattern: string): Promise<string[]> {
  const keys = new Set<string>();
  let cursor = '0';
  do {
    const [next, batch] = await connection.run<[string, string[]]>('handles.list', [
      'SCAN',
      cursor,
      'MATCH',
      pattern,
      'COUNT',
      SCAN_BATCH,
    ]);
    for (const key of batch) keys.add(key);
    cursor = next;
  } while (cursor !== '0');
  return [...keys];
}
