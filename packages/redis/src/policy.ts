/**
 * The call policy's store in Redis, shared by every worker given it: the rate's window, a 429's
 * hold and the leases of `concurrency`'s slots on Redis's own clock (workers' clocks may
 * differ), and reused results, sealed by
 * `secrets` as handles are (a result may hold what a user should not see in a key dump).
 */

import { randomUUID } from 'node:crypto';
import type { CallRate, CallToolResult, PolicyStore, TakenStart } from '@toolwire/client';
import type { Connection } from './connection.ts';
import { keyOf } from './keys.ts';
import { type Secrets, seal, unseal } from './secrets.ts';

/** A hold left wins; else one start in the current fixed window of `intervalMs`, if any is left. */
const TAKE = `
local held = redis.call('PTTL', KEYS[1])
if held > 0 then return {held, 1} end
local interval = tonumber(ARGV[2])
if interval == 0 then return {0, 0} end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local window = math.floor(now / interval)
local key = KEYS[2] .. ':' .. window
local count = redis.call('INCR', key)
if count == 1 then redis.call('PEXPIRE', key, interval * 2) end
if count > tonumber(ARGV[1]) then return {(window + 1) * interval - now, 0} end
return {0, 0}
`;

/** A longer hold than the one set replaces it; a shorter one leaves it. */
const HOLD = `
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return 0
`;

/**
 * One of `limit` slots: the leases are a sorted set scored by when each runs out, on Redis's
 * clock; the lapsed ones are taken back first, so a worker that died holds nothing past its
 * leases. The set itself lapses with its last lease.
 */
const ACQUIRE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
local lease = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + lease, ARGV[3])
if redis.call('PTTL', KEYS[1]) < lease then redis.call('PEXPIRE', KEYS[1], lease) end
return 1
`;

export type RedisPolicyStore = PolicyStore &
  Required<Pick<PolicyStore, 'acquireSlot' | 'releaseSlot'>>;

export interface PolicyStoreConfig {
  connection: Connection;
  prefix: string;
  secrets: Secrets;
}

export function redisPolicyStore(config: PolicyStoreConfig): RedisPolicyStore {
  const { connection, prefix, secrets } = config;
  return {
    async take(server: string, rate: CallRate | undefined): Promise<TakenStart> {
      const [waitMs, held] = await connection.run<[number, number]>('policy.take', [
        'EVAL',
        TAKE,
        '2',
        keyOf(prefix, 'hold', server),
        keyOf(prefix, 'rate', server),
        String(rate?.requests ?? 0),
        String(rate?.intervalMs ?? 0),
      ]);
      return { waitMs: Number(waitMs), held: Number(held) === 1 };
    },
    async hold(server: string, untilMs: number): Promise<void> {
      const ms = Math.ceil(untilMs - Date.now());
      if (ms <= 0) return;
      await connection.run('policy.hold', [
        'EVAL',
        HOLD,
        '1',
        keyOf(prefix, 'hold', server),
        String(ms),
      ]);
    },
    async result(key: string): Promise<CallToolResult | undefined> {
      const value = await connection.run<string | null>('policy.result', [
        'GET',
        keyOf(prefix, 'result', key),
      ]);
      if (value === null) return undefined;
      return (await unseal(secrets, 'policy.result', value)) as unknown as CallToolResult;
    },
    async acquireSlot(server: string, limit: number, leaseMs: number): Promise<string | undefined> {
      const lease = randomUUID();
      const taken = await connection.run<number>('policy.acquireSlot', [
        'EVAL',
        ACQUIRE,
        '1',
        keyOf(prefix, 'slots', server),
        String(limit),
        String(Math.ceil(leaseMs)),
        lease,
      ]);
      return Number(taken) === 1 ? lease : undefined;
    },
    async releaseSlot(server: string, lease: string): Promise<void> {
      await connection.run('policy.releaseSlot', ['ZREM', keyOf(prefix, 'slots', server), lease]);
    },
    async keepResult(key: string, result: CallToolResult, ttlMs: number): Promise<void> {
      await connection.run('policy.keepResult', [
        'SET',
        keyOf(prefix, 'result', key),
        await seal(secrets, result),
        'PX',
        String(Math.ceil(ttlMs)),
      ]);
    },
  };
}
