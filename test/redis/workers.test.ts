/**
 * Many workers, one view: separate Node processes share their handles and verdicts through a
 * real Redis. A worker killed (SIGKILL) while it waits on deferred work leaves the handle behind,
 * and another worker redeems it; a worker for a URL another worker already probed sends no probe.
 */
import { randomBytes } from 'node:crypto';
import { aesGcmSecrets, createRedisStores, type RedisStores } from '@toolwire/redis';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { RedisServer } from '../helpers/redis-server.ts';
import { needs, service } from '../helpers/services.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { startWorker, type WorkerProcess } from '../helpers/worker-process.ts';

const WORKER = new URL('./worker.ts', import.meta.url);
const key = randomBytes(32).toString('hex');

// The workers use the default prefix and the tests count what is under it: an empty Redis of their own.
const own = service('redis-server');
needs(own);

let redis: RedisServer;
let server: ReferenceServer;
let stores: RedisStores;
beforeEach(async () => {
  if (!own.ok) return;
  redis = await own.start();
  server = await startReferenceServer();
  stores = createRedisStores({ url: redis.url, secrets: aesGcmSecrets(key), timeoutMs: 5_000 });
});
afterEach(async () => {
  await stores?.close();
  await server?.close();
  await redis?.close();
});

function worker(url: string, dialect: string, ...job: string[]): WorkerProcess {
  return startWorker(WORKER, [redis.url, url, dialect, ...job], { TOOLWIRE_TEST_KEY: key });
}

async function finished(process: WorkerProcess): Promise<Array<Record<string, unknown>>> {
  const code = await process.exited;
  if (code !== 0) throw new Error(`worker exited with ${code}: ${process.stderr()}`);
  return process.events;
}

const DEFERRED = [
  {
    kind: 'a 2026-07-28 task',
    url: () => server.urls.modern,
    dialect: 'auto',
    call: ['slow_task', JSON.stringify({ ms: 1_500, text: 'survived', pollIntervalMs: 50 })],
    answer: 'done: survived',
  },
  {
    kind: 'an MCP-lite promise',
    url: () => server.urls.mcpLite,
    dialect: 'mcp-lite',
    call: ['long_analysis', JSON.stringify({ ms: 1_500, text: 'survived' })],
    answer: 'analysis: survived',
  },
] as const;

describe.each(DEFERRED)(
  '$kind outlives the worker that started it',
  ({ url, dialect, call, answer }) => {
    test('the first worker is killed (SIGKILL) mid-wait; a second redeems the handle and deletes it', async () => {
      await using first = worker(url(), dialect, 'call', ...call);
      await waitFor(() => first.events.some((event) => event['pending']), 10_000);
      const [stored] = await stores.handles.list({ url: url() });
      expect(stored).toMatchObject({ url: url(), tool: call[0] });
      await first.kill();
      expect(first.child.signalCode).toBe('SIGKILL');
      expect(first.events.some((event) => event['result'])).toBe(false);
      // The killed worker's handle is still there for anyone to take up.
      expect(await stores.handles.list({ url: url() })).toEqual([stored]);

      const second = worker(url(), dialect, 'redeem');
      const events = await finished(second);
      expect(events.filter((event) => event['warning'])).toEqual([]);
      expect(events.filter((event) => event['redeemed'])).toEqual([
        { redeemed: [{ type: 'text', text: answer }] },
      ]);
      expect(await stores.handles.list()).toEqual([]);
    });
  },
);

test('the handle in Redis names neither the task id nor the tool in clear', async () => {
  await using first = worker(server.urls.modern, 'auto', 'call', ...DEFERRED[0].call);
  await waitFor(() => first.events.some((event) => event['pending']), 10_000);
  await first.kill();
  const [task] = server.tasks;
  const { createClient } = await import('@redis/client');
  const raw = createClient({ url: redis.url });
  await raw.connect();
  try {
    const keys = await raw.keys('toolwire:handle:*');
    expect(keys).toHaveLength(1);
    const value = (await raw.get(keys[0]!)) ?? '';
    expect(`${keys[0]} ${value}`).not.toContain(task!.taskId);
    expect(value).not.toContain('slow_task');
  } finally {
    await raw.close();
  }
});

describe('a verdict one worker found spares every other worker the probe', () => {
  const discovers = () =>
    server.log.filter((entry) => (entry.body as { method?: string })?.method === 'server/discover')
      .length;

  test('a legacy server: the second worker goes straight to initialize', async () => {
    const first = await finished(worker(server.url, 'auto', 'list'));
    expect(first.at(-1)).toMatchObject({ dialect: 'mcp-stateful' });
    expect(discovers()).toBe(1);
    const second = await finished(worker(server.url, 'auto', 'list'));
    expect(second.at(-1)).toMatchObject({ dialect: 'mcp-stateful' });
    expect(discovers()).toBe(1);
  });

  test('a modern server: the second worker sends no request before its listing', async () => {
    await finished(worker(server.urls.modern, 'auto', 'list'));
    expect(discovers()).toBe(1);
    const before = server.log.length;
    const second = await finished(worker(server.urls.modern, 'auto', 'list'));
    expect(second.at(-1)).toMatchObject({ dialect: 'mcp-stateless' });
    const methods = server.log
      .slice(before)
      .map((entry) => (entry.body as { method?: string })?.method);
    expect(new Set(methods)).toEqual(new Set(['tools/list']));
  });
});
