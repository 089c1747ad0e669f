/**
 * The stores many toolwire clients share through one Redis: pass `handles` and `verdicts` to
 * `createMcpClient` in every worker, and close the stores when the worker stops.
 */
import { checkKeys, type OptionKeys } from '@toolwire/client';
import { type RedisAuthStore, redisAuthStore } from './auth.ts';
import { Connection, type RedisCommands } from './connection.ts';
import { type RedisHandleStore, redisHandleStore } from './handles.ts';
import { type RedisPolicyStore, redisPolicyStore } from './policy.ts';
import { type SecretsOption, secretsFrom } from './secrets.ts';
import { type RedisVerdictStore, redisVerdictStore } from './verdicts.ts';

export interface RedisStoresOptions {
  /**
   * The Redis server's URL, for a connection the stores make and `close()` closes.
   * @default 'redis://127.0.0.1:6379'
   */
  url?: string;
  /** A node-redis client the application made and connected instead; `close()` leaves it open. */
  client?: RedisCommands;
  /**
   * How secrets (task ids, promise tokens, OAuth tokens) are written: an `{ encrypt, decrypt }` pair
   * (`aesGcmSecrets(key)`), or `'plaintext'` to store them in clear. Required: no default.
   */
  secrets: SecretsOption;
  /**
   * Put before every key, to share a Redis with other applications.
   * @default 'toolwire:'
   */
  prefix?: string;
  /**
   * How long a command may take. Past it the store fails with StoreUnavailableError, which the
   * client reports as a `warning` before going on without the store.
   * @default 500
   */
  timeoutMs?: number;
  /**
   * How long a handle whose server gave no expiry is kept.
   * @default 86_400_000 (a day)
   */
  handleTtlMs?: number;
  /**
   * How long a verdict is kept.
   * @default 86_400_000 (a day)
   */
  verdictTtlMs?: number;
}

export interface RedisStores extends AsyncDisposable {
  handles: RedisHandleStore;
  verdicts: RedisVerdictStore;
  /** OAuth tokens, registrations and discovery, with the lock for one refresh across processes. */
  auth: RedisAuthStore;
  /** The call policy's rate window, 429 hold and reused results: pass as `policy.store`. */
  policy: RedisPolicyStore;
  /** Closes the connection the stores made (not a `client` the application gave). */
  close(): Promise<void>;
}

export const REDIS_DEFAULTS = Object.freeze({
  prefix: 'toolwire:',
  timeoutMs: 500,
  handleTtlMs: 86_400_000,
  verdictTtlMs: 86_400_000,
});

/** Every key the options take: a typo (`handleTTLMs`) is a TypeError, not a default. */
const OPTION_KEYS = {
  url: true,
  client: true,
  secrets: true,
  prefix: true,
  timeoutMs: true,
  handleTtlMs: true,
  verdictTtlMs: true,
} as const satisfies OptionKeys<RedisStoresOptions>;

export function createRedisStores(options: RedisStoresOptions): RedisStores {
  checkKeys(options, OPTION_KEYS);
  const secrets = secretsFrom(options.secrets);
  const prefix = options.prefix ?? REDIS_DEFAULTS.prefix;
  const timeoutMs = options.timeoutMs ?? REDIS_DEFAULTS.timeoutMs;
  const handleTtlMs = options.handleTtlMs ?? REDIS_DEFAULTS.handleTtlMs;
  const verdictTtlMs = options.verdictTtlMs ?? REDIS_DEFAULTS.verdictTtlMs;
  if (typeof prefix !== 'string') throw new TypeError('expected `prefix` to be a string');
  for (const [name, value] of [
    ['timeoutMs', timeoutMs],
    ['handleTtlMs', handleTtlMs],
    ['verdictTtlMs', verdictTtlMs],
  ] as const) {
    if (!(typeof value === 'number' && value > 0 && Number.isFinite(value))) {
      throw new TypeError(`expected \`${name}\` to be a positive number, got ${String(value)}`);
    }
  }
  const connection = new Connection({ url: options.url, client: options.client, timeoutMs });
  return {
    handles: redisHandleStore({ connection, prefix, secrets, ttlMs: handleTtlMs }),
    verdicts: redisVerdictStore({ connection, prefix, ttlMs: verdictTtlMs }),
    auth: redisAuthStore({ connection, prefix, secrets }),
    policy: redisPolicyStore({ connection, prefix, secrets }),
    close: () => connection.close(),
    [Symbol.asyncDispose]: () => connection.close(),
  };
}
