/**
 * The Redis auth store and its lock, against a real redis-server: OAuth records sealed and kept
 * as long as they are of use, and a lock that one worker holds at a time, that only its holder
 * releases, and that a holder that died gives up after its TTL.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { StoreUnavailableError } from '@toolwire/client';
import { aesGcmSecrets, createRedisStores } from '@toolwire/redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { neededBy, needs, type Redis, service } from '../helpers/services.ts';

const available = service('redis');
// The last test stops a Redis of its own.
const own = service('redis-server');
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
const stores = (prefix: string) =>
  createRedisStores({ url: redis.url, secrets, timeoutMs: 5_000, prefix });
const never = new AbortController().signal;

describe('records', () => {
  test('sealed under a hashed key, read back, deleted', async () => {
    await using store = stores('a1:');
    const key = 'tokens https://issuer.example https://mcp.example/mcp';
    const record = {
      accessToken: 'at-secret',
      refreshToken: 'rt-secret',
      tokenType: 'Bearer',
      scopes: [],
    };
    await store.auth.set(key, record);
    const [name] = await raw.keys('a1:*');
    expect(name).toMatch(/^a1:auth:/);
    const stored = `${name} ${await raw.get(name!)}`;
    for (const secret of ['at-secret', 'rt-secret', 'issuer.example']) {
      expect(stored).not.toContain(secret);
    }
    expect(await store.auth.get(key)).toEqual(record);
    // A token that can be refreshed is kept past its access token's lifetime.
    expect(await raw.pTTL(name!)).toBe(-1);
    await store.auth.delete(key);
    expect(await store.auth.get(key)).toBeUndefined();
  });

  test('a token without a refresh token lives as long as its access token', async () => {
    await using store = stores('a2:');
    const expiresAt = Date.now() + 60_000;
    await store.auth.set('tokens i r', {
      accessToken: 'at',
      tokenType: 'Bearer',
      scopes: [],
      expiresAt,
    });
    const [name] = await raw.keys('a2:*');
    expect(await raw.pTTL(name!)).toBeGreaterThan(0);
    expect(await raw.pTTL(name!)).toBeLessThanOrEqual(60_000);
    await store.auth.set('tokens i r', {
      accessToken: 'at',
      tokenType: 'Bearer',
      scopes: [],
      expiresAt: 1,
    });
    expect(await raw.keys('a2:*')).toEqual([]);
  });
});

describe('the lock', () => {
  test('one holder at a time: the second waits until the first releases', async () => {
    await using first = stores('l1:');
    await using second = stores('l1:');
    const release = await first.auth.lock('tokens i r', { ttlMs: 30_000, signal: never });
    let taken = false;
    const waiting = second.auth.lock('tokens i r', { ttlMs: 30_000, signal: never }).then((r) => {
      taken = true;
      return r;
    });
    // The waiter has tried (and failed) a few times by now; it holds nothing.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(taken).toBe(false);
    await release();
    const releaseSecond = await waiting;
    expect(taken).toBe(true);
    await releaseSecond();
    expect(await raw.keys('l1:lock:*')).toEqual([]);
  });

  test('a holder that died holds the others up for its TTL only', async () => {
    await using dead = stores('l2:');
    await using alive = stores('l2:');
    await dead.auth.lock('k', { ttlMs: 300, signal: never }); // never released
    const [name] = await raw.keys('l2:lock:*');
    expect(await raw.pTTL(name!)).toBeLessThanOrEqual(300);
    const release = await alive.auth.lock('k', {
      ttlMs: 30_000,
      signal: AbortSignal.timeout(10_000),
    });
    await release();
  });

  test("a holder whose lock expired cannot release the next holder's", async () => {
    await using late = stores('l3:');
    await using next = stores('l3:');
    const lateRelease = await late.auth.lock('k', { ttlMs: 50, signal: never });
    const nextRelease = await next.auth.lock('k', {
      ttlMs: 30_000,
      signal: AbortSignal.timeout(10_000),
    });
    await lateRelease();
    expect(await raw.keys('l3:lock:*')).toHaveLength(1);
    await nextRelease();
    expect(await raw.keys('l3:lock:*')).toEqual([]);
  });

  test("a waiter stops on its signal, with the signal's reason", async () => {
    await using holder = stores('l4:');
    await using waiter = stores('l4:');
    const release = await holder.auth.lock('k', { ttlMs: 30_000, signal: never });
    const controller = new AbortController();
    const waiting = waiter.auth.lock('k', { ttlMs: 30_000, signal: controller.signal });
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await release();
  });

  test('Redis down: taking the lock fails with StoreUnavailableError, never hangs', async (ctx) => {
    const down = await neededBy(ctx, own).start();
    const store = createRedisStores({ url: down.url, secrets, timeoutMs: 100 });
    await down.close();
    try {
      await expect(store.auth.lock('k', { ttlMs: 1_000, signal: never })).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
      await expect(store.auth.get('k')).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await store.close();
    }
  });
});
