/**
 * A short lock in Redis, for one worker at a time across processes: `SET key token NX PX ttl`
 * takes it, a script that deletes the key only while it still holds this worker's token releases
 * it (a holder whose lock expired never frees the next holder's), and the TTL bounds how long a
 * worker that died holding it keeps the others waiting. Waiting is polling, paced by backoff,
 * until the lock is free or the caller's signal aborts.
 */
import { randomBytes } from 'node:crypto';
import type { Connection } from './connection.ts';

/** Deletes the lock only if it is still ours. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/** The pause between two tries: short at first (a refresh takes a round trip), then longer. */
const POLL = { firstMs: 20, maxMs: 250 } as const;

export type Release = () => Promise<void>;

export async function acquire(
  connection: Connection,
  key: string,
  options: { ttlMs: number; signal: AbortSignal },
): Promise<Release> {
  const token = randomBytes(16).toString('base64url');
  const ttl = String(Math.max(1, Math.ceil(options.ttlMs)));
  for (let pause: number = POLL.firstMs; ; pause = Math.min(pause * 2, POLL.maxMs)) {
    options.signal.throwIfAborted();
    const taken = await connection.run('auth.lock', ['SET', key, token, 'NX', 'PX', ttl]);
    if (taken === 'OK') {
      return async () => {
        await connection.run('auth.unlock', ['EVAL', RELEASE, '1', key, token]);
      };
    }
    await pauseFor(pause, options.signal);
  }
}

function pauseFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
