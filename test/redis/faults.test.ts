/**
 * Redis down or slow never fails a call that does not need it: each store command gives up after
 * `timeoutMs`, the client reports a StoreUnavailableError as a `warning` and goes on in memory.
 * When Redis comes back, node-redis reconnects and the stores work again.
 */
import { randomBytes } from 'node:crypto';
import { createMcpClient, StoreUnavailableError } from '@toolwire/client';
import { aesGcmSecrets, createRedisStores } from '@toolwire/redis';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { settledHandles } from '../helpers/handles.ts';
import type { RedisServer } from '../helpers/redis-server.ts';
import { needs, service } from '../helpers/services.ts';

// Every test here stops or pauses Redis: a redis-server of their own.
const own = service('redis-server');
needs(own);

const secrets = aesGcmSecrets(randomBytes(32));
let server: ReferenceServer;
let redis: RedisServer;
beforeEach(async () => {
  if (!own.ok) return;
  server = await startReferenceServer();
  redis = await own.start();
});
afterEach(async () => {
  await redis?.close();
  await server?.close();
});

/**
 * The store's answer once Redis gives one: a loaded machine may take longer than the 100 ms
 * bound to connect, and a bounded wait for it is no assertion about time.
 */
async function answered<T>(command: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await command();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || tries >= 50) throw error;
    }
  }
}

/** A worker's client on the Redis stores; `warnings` collects what it reports. */
function worker(url: string, stores: ReturnType<typeof createRedisStores>) {
  const client = createMcpClient(url, {
    handles: stores.handles,
    verdicts: stores.verdicts,
    listen: false,
    // The call's own deadline: a store that held the call past it would fail this test.
    timeoutMs: 5_000,
  });
  const warnings: Error[] = [];
  client.on('warning', (error) => warnings.push(error));
  return { client, warnings };
}

test.each([
  ['down', (r: RedisServer) => r.close(), /Redis failed|no answer from Redis/],
  [
    'slow (holds the connection, answers nothing)',
    (r: RedisServer) => r.pause(),
    /no answer from Redis within 100 ms/,
  ],
])(
  'Redis %s: a tool call and a task still get their answers, with warnings',
  async (_, fault, reason) => {
    const stores = createRedisStores({ url: redis.url, secrets, timeoutMs: 100 });
    await answered(() => stores.verdicts.get(server.urls.modern)); // connected before the fault
    await fault(redis);
    const legacy = worker(server.url, stores);
    const modern = worker(server.urls.modern, stores);
    try {
      expect((await legacy.client.callTool('echo', { text: 'still here' })).content).toEqual([
        { type: 'text', text: 'still here' },
      ]);
      const task = await modern.client.callTool('slow_task', { ms: 100, text: 'still here' });
      expect(task.content).toEqual([{ type: 'text', text: 'done: still here' }]);
    } finally {
      await legacy.client.close();
      await modern.client.close();
      redis.resume();
      await stores.close();
    }
    const operations = (warnings: Error[]) =>
      warnings.map((error) => (error as StoreUnavailableError).operation);
    expect(operations(legacy.warnings)).toEqual(['verdicts.get', 'verdicts.set']);
    expect(operations(modern.warnings)).toEqual([
      'verdicts.get',
      'verdicts.set',
      'handles.save',
      'handles.delete',
    ]);
    for (const warning of [...legacy.warnings, ...modern.warnings]) {
      expect(warning).toBeInstanceOf(StoreUnavailableError);
      expect(warning.message).toMatch(reason);
    }
  },
);

test('once Redis answers again, the stores work again without a new connection', async () => {
  await using stores = createRedisStores({ url: redis.url, secrets, timeoutMs: 100 });
  await answered(() => stores.verdicts.get(server.url));
  redis.pause();
  await expect(stores.verdicts.get(server.url)).rejects.toBeInstanceOf(StoreUnavailableError);
  redis.resume();
  await answered(() =>
    stores.verdicts.set(server.url, { dialect: 'mcp-stateful', version: '2025-11-25' }),
  );
  expect(await answered(() => stores.verdicts.get(server.url))).toEqual({
    dialect: 'mcp-stateful',
    version: '2025-11-25',
  });
});

test('stores that never reached Redis close without leaving a socket or timer', async () => {
  const baseline = await settledHandles();
  await redis.close();
  const stores = createRedisStores({ url: redis.url, secrets, timeoutMs: 50 });
  await expect(stores.handles.list()).rejects.toBeInstanceOf(StoreUnavailableError);
  await stores.close();
  expect(await settledHandles()).toBe(baseline);
});
