/**
 * OAuth state in Redis (tokens, client registrations, discovery), shared by every worker, with
 * the lock that makes one of them refresh a token while the others wait and then read the new
 * one: a rotating refresh token is spent once across the fleet. Every value is sealed by
 * `secrets`, since tokens and client secrets are in them. A token record without a refresh token
 * expires with its access token; the rest stays until replaced or deleted.
 */
import type { AuthStore, JsonObject } from '@toolwire/client';
import type { Connection } from './connection.ts';
import { keyOf } from './keys.ts';
import { acquire, type Release } from './lock.ts';
import { type Secrets, seal, unseal } from './secrets.ts';

/** The client's AuthStore, every method async, with the cross-process lock. */
export interface RedisAuthStore extends AuthStore {
  get(key: string): Promise<JsonObject | undefined>;
  set(key: string, value: JsonObject): Promise<void>;
  delete(key: string): Promise<void>;
  lock(key: string, options: { ttlMs: number; signal: AbortSignal }): Promise<Release>;
}

export interface AuthStoreConfig {
  connection: Connection;
  prefix: string;
  secrets: Secrets;
}

export function redisAuthStore(config: AuthStoreConfig): RedisAuthStore {
  const { connection, prefix, secrets } = config;
  const keyFor = (key: string) => keyOf(prefix, 'auth', key);
  return {
    async get(key) {
      const value = await connection.run<string | null>('auth.get', ['GET', keyFor(key)]);
      return value === null ? undefined : unseal(secrets, 'auth.get', value);
    },
    async set(key, value) {
      const sealed = await seal(secrets, value);
      const expiresAt = lifetimeOf(value);
      const expiry = expiresAt === undefined ? [] : ['PXAT', String(expiresAt)];
      // An access token already past its lifetime, with nothing to refresh it: nothing to keep.
      if (expiresAt !== undefined && expiresAt <= Date.now()) {
        await connection.run('auth.set', ['DEL', keyFor(key)]);
        return;
      }
      await connection.run('auth.set', ['SET', keyFor(key), sealed, ...expiry]);
    },
    async delete(key) {
      await connection.run('auth.delete', ['DEL', keyFor(key)]);
    },
    lock: (key, options) => acquire(connection, keyOf(prefix, 'lock', key), options),
  };
}

/** When a record stops being any use: a token that cannot be refreshed, when its access token expires. */
function lifetimeOf(value: JsonObject): number | undefined {
  const { accessToken, refreshToken, expiresAt } = value;
  if (typeof accessToken !== 'string' || typeof refreshToken === 'string') return undefined;
  return typeof expiresAt === 'number' && Number.isFinite(expiresAt) ? expiresAt : undefined;
}
