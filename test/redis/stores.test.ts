/**
 * The Redis stores as one worker sees them, against a real redis-server: what is written, under
 * which key, for how long, and that closing them leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { type CallHandle, createMcpClient, StoreUnavailableError } from '@toolwire/client';
import { aesGcmSecrets, createRedisStores } from '@toolwire/redis';
import { startReferenceServer } from '@toolwire/reference-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { settledHandles } from '../helpers/handles.ts';
import { needs, type Redis, service } from '../helpers/services.ts';

const available = service('redis');
needs(available);

let redis: Redis;
let raw: ReturnType<typeof createClient>;
beforeAll(async () => {
  if (!available.ok) return;
  redis = await available.start();
  raw = createClient({ url: redis.url });
  await raw.connect();
});
afterAll(async () => {
  await raw?.close();
  await redis?.close();
});

const secrets = aesGcmSecrets(randomBytes(32));
const handle = (overrides: Partial<CallHandle> = {}): CallHandle => ({
  kind: 'task',
  id: `task-${randomBytes(6).toString('hex')}`,
  url: 'http://127.0.0.1:1/mcp',
  dialect: 'mcp-stateless',
  tool: 'slow_task',
  issuedAt: new Date().toISOString(),
  ...overrides,
});

describe('handles', () => {
  test('saved under the prefix, sealed, listed, and deleted', async () => {
    await using stores = createRedisStores({
      url: redis.url,
      secrets,
      timeoutMs: 5_000,
      prefix: 'app1:',
    });
    const first = handle();
    const other = handle({ url: 'http://127.0.0.1:2/mcp' });
    await stores.handles.save(first);
    await stores.handles.save(other);
    const keys = await raw.keys('app1:*');
    expect(keys).toHaveLength(2);
    expect(keys.every((key) => key.startsWith('app1:handle:'))).toBe(true);
    for (const key of keys) expect(await raw.get(key)).not.toContain(first.id);
    expect(await stores.handles.list({ url: first.url })).toEqual([first]);
    expect(await stores.handles.list()).toHaveLength(2);
    await stores.handles.delete(first);
    await stores.handles.delete(other);
    expect(await stores.handles.list()).toEqual([]);
  });

  test("expire when the server's handle does, and after handleTtlMs when it gave no expiry", async () => {
    await using stores = createRedisStores({
      url: redis.url,
      secrets,
      timeoutMs: 5_000,
      prefix: 'app2:',
      handleTtlMs: 3_600_000,
    });
    await stores.handles.save(handle({ expiresAt: new Date(Date.now() + 60_000).toISOString() }));
    await stores.handles.save(handle({ id: 'no-expiry' }));
    const ttls = await Promise.all((await raw.keys('app2:*')).map((key) => raw.pTTL(key)));
    expect(ttls.sort((a, b) => a - b)).toEqual([
      expect.toSatisfy((ms: number) => ms > 0 && ms <= 60_000),
      expect.toSatisfy((ms: number) => ms > 60_000 && ms <= 3_600_000),
    ]);
  });

  test('a handle the server has already forgotten is not stored', async () => {
    await using stores = createRedisStores({
      url: redis.url,
      secrets,
      timeoutMs: 5_000,
      prefix: 'app3:',
    });
    await stores.handles.save(handle({ expiresAt: new Date(Date.now() - 1).toISOString() }));
    expect(await raw.keys('app3:*')).toEqual([]);
  });

  test("'plaintext' stores the handle as JSON, for an application that allows it", async () => {
    await using stores = createRedisStores({
      url: redis.url,
      secrets: 'plaintext',
      prefix: 'app4:',
    });
    const saved = handle();
    await stores.handles.save(saved);
    const [key] = await raw.keys('app4:*');
    expect(JSON.parse((await raw.get(key!)) ?? '')).toEqual(saved);
  });

  test('a deferred call keeps its handle in Redis while it waits, and deletes it after', async () => {
    await using server = await startReferenceServer();
    await using stores = createRedisStores({
      url: redis.url,
      secrets,
      timeoutMs: 5_000,
      prefix: 'app5:',
    });
    await using client = createMcpClient(server.urls.modern, {
      handles: stores.handles,
      listen: false,
    });
    const seen: CallHandle[][] = [];
    const result = await client.callTool(
      'slow_task',
      { ms: 200, text: 'stored' },
      {
        onStatus: (status) => {
          if (status.state === 'working')
            void stores.handles.list().then((list) => seen.push(list));
        },
      },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'done: stored' }]);
    expect(seen.flat()[0]).toMatchObject({ kind: 'task', tool: 'slow_task', url: client.url });
    expect(await stores.handles.list()).toEqual([]);
  });
});

describe('verdicts', () => {
  test('kept as JSON for verdictTtlMs, and dropped', async () => {
    await using stores = createRedisStores({
      url: redis.url,
      secrets,
      timeoutMs: 5_000,
      prefix: 'app6:',
      verdictTtlMs: 120_000,
    });
    const url = 'http://127.0.0.1:1/mcp?key=not-in-the-key-name';
    await stores.verdicts.set(url, { dialect: 'mcp-stateful', version: '2025-11-25' });
    expect(await stores.verdicts.get(url)).toEqual({
      dialect: 'mcp-stateful',
      version: '2025-11-25',
    });
    const [key] = await raw.keys('app6:*');
    expect(key).toMatch(/^app6:verdict:/);
    expect(key).not.toContain('not-in-the-key-name');
    expect(await raw.pTTL(key!)).toBeGreaterThan(60_000);
    await stores.verdicts.delete(url);
    expect(await stores.verdicts.get(url)).toBeUndefined();
  });
});

describe('options', () => {
  test('misuse is a TypeError at once', () => {
    expect(() => createRedisStores({ url: redis.url } as never)).toThrow(/secrets/);
    expect(() => createRedisStores({ url: redis.url, secrets, timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  test('a client the application made is used as is, and left open by close()', async () => {
    const stores = createRedisStores({ client: raw, secrets, timeoutMs: 5_000, prefix: 'app7:' });
    await stores.verdicts.set('http://x/mcp', { dialect: 'mcp-stateless', version: '2026-07-28' });
    await stores.close();
    expect(raw.isReady).toBe(true);
    expect(await raw.keys('app7:*')).toHaveLength(1);
  });
});

test('close() leaves no socket or timer behind', async () => {
  const baseline = await settledHandles();
  const stores = createRedisStores({ url: redis.url, secrets, timeoutMs: 5_000, prefix: 'app8:' });
  await stores.verdicts.get('http://x/mcp');
  await stores.close();
  expect(await settledHandles()).toBe(baseline);
});

test('a value sealed with another key is a StoreUnavailableError, not a crypto error', async () => {
  await using writer = createRedisStores({
    url: redis.url,
    secrets,
    timeoutMs: 5_000,
    prefix: 'app9:',
  });
  await writer.handles.save(handle());
  await using reader = createRedisStores({
    url: redis.url,
    secrets: aesGcmSecrets(randomBytes(32)),
    timeoutMs: 5_000,
    prefix: 'app9:',
  });
  const error = await reader.handles.list().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(StoreUnavailableError);
  expect(error).toMatchObject({ operation: 'handles.list' });
});
