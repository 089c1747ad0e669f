/**
 * @toolwire/redis: shared stores on Redis, for many toolwire clients in many processes. Every
 * export here is API; nothing else is.
 */
export type { RedisAuthStore } from './auth.ts';
export type { RedisCommands } from './connection.ts';
export type { RedisHandleStore } from './handles.ts';
export type { RedisPolicyStore } from './policy.ts';
export { aesGcmSecrets, type Secrets, type SecretsOption } from './secrets.ts';
export {
  createRedisStores,
  REDIS_DEFAULTS,
  type RedisStores,
  type RedisStoresOptions,
} from './stores.ts';
export type { RedisVerdictStore } from './verdicts.ts';
