/**
 * Negotiation verdicts in Redis: what a URL speaks, found by one worker's probe, read by every
 * other worker, which then sends no probe of its own. A verdict holds nothing secret (the dialect,
 * the revision, a public discover answer), so it is stored as JSON, for `verdictTtlMs`.
 */
import type { Verdict, VerdictStore } from '@toolwire/client';
import type { Connection } from './connection.ts';
import { keyOf } from './keys.ts';
import { secretsFrom, unseal } from './secrets.ts';

/** Verdicts hold nothing secret: stored as plain JSON. */
const PLAIN = secretsFrom('plaintext');

/** The verdict store, every method async (Redis is a round trip away). */
export interface RedisVerdictStore extends VerdictStore {
  get(url: string): Promise<Verdict | undefined>;
  set(url: string, verdict: Verdict): Promise<void>;
  delete(url: string): Promise<void>;
}

export interface VerdictStoreConfig {
  connection: Connection;
  prefix: string;
  ttlMs: number;
}

export function redisVerdictStore(config: VerdictStoreConfig): RedisVerdictStore {
  const { connection, prefix } = config;
  const keyFor = (url: string) => keyOf(prefix, 'verdict', url);
  return {
    async get(url) {
      const value = await connection.run<string | null>('verdicts.get', ['GET', keyFor(url)]);
      return value === null
        ? undefined
        : ((await unseal(PLAIN, 'verdicts.get', value)) as unknown as Verdict);
    },
    async set(url, verdict) {
      await connection.run('verdicts.set', [
        'SET',
        keyFor(url),
        JSON.stringify(verdict),
        'PX',
        String(config.ttlMs),
      ]);
    },
    async delete(url) {
      await connection.run('verdicts.delete', ['DEL', keyFor(url)]);
    },
  };
}
