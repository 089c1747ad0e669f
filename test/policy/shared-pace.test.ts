/**
 * Pacing shared by workers in separate processes through one Redis, counted by what the server
 * saw: `concurrency` holds across both workers (never more in flight than the limit), a worker
 * that dies gives its slots back once its leases lapse, and `rate` holds across both by the
 * server's own receipt times, within the fixed window's documented boundary effect.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mcpServer, result, startFaultServer } from '../helpers/fault-server.ts';
import { needs, type Redis, service } from '../helpers/services.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { startWorker } from '../helpers/worker-process.ts';

const available = service('redis');
needs(available);

let redis: Redis;
beforeAll(async () => {
  if (available.ok) redis = await available.start();
});
afterAll(async () => {
  await redis?.close();
});

const WORKER = new URL('./pace-worker.ts', import.meta.url);
const TOOLS = ['slow', 'hang'].map((name) => ({ name, inputSchema: { type: 'object' } }));
const prefix = () => `pace-${randomBytes(4).toString('hex')}:`;

/** A server that counts what it has in flight, and when each call reached it (its clock). */
async function countingServer(holdMs: number) {
  const seen = { inFlight: 0, most: 0, arrivals: [] as number[], hung: 0 };
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = await startFaultServer(
    mcpServer(async (message) => {
      if (message.method === 'tools/list') return result(message.id, { tools: TOOLS });
      if (message.method !== 'tools/call') return undefined;
      seen.arrivals.push(Date.now());
      if (message.params?.['name'] === 'hang') {
        seen.hung += 1;
        await released;
        return result(message.id, { content: [] });
      }
      seen.inFlight += 1;
      seen.most = Math.max(seen.most, seen.inFlight);
      // Long enough that calls overlap: a limit that did not hold would show here.
      await new Promise((resolve) => setTimeout(resolve, holdMs));
      seen.inFlight -= 1;
      return result(message.id, { content: [{ type: 'text', text: 'done' }] });
    }),
  );
  return { server, seen, release };
}

/** Both workers connected and waiting, then told to go together. */
async function together(serverUrl: string, job: string, count: number) {
  const shared = prefix();
  const workers = [1, 2].map(() =>
    startWorker(WORKER, [redis.url, serverUrl, shared, job, String(count)], {}, [], {
      stdin: true,
    }),
  );
  try {
    await waitFor(
      () => workers.every((worker) => worker.events.some((event) => event['ready'] === true)),
      15_000,
    );
    for (const worker of workers) worker.child.stdin!.write('go\n');
    for (const worker of workers) {
      const code = await worker.exited;
      if (code !== 0) throw new Error(`worker exited with ${code}: ${worker.stderr()}`);
      expect(worker.events).toContainEqual({ done: count });
      expect(worker.events.filter((event) => 'warning' in event)).toEqual([]);
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.kill()));
  }
}

test('concurrency 2 holds across two worker processes: never more than 2 in flight', async () => {
  const { server, seen, release } = await countingServer(150);
  await using _ = server;
  try {
    await together(server.url, 'burst', 6);
  } finally {
    release();
  }
  expect(seen.arrivals).toHaveLength(12);
  expect(seen.most).toBe(2);
});

test('a worker that dies holding every slot gives them back once its leases lapse', async () => {
  const { server, seen, release } = await countingServer(10);
  await using _ = server;
  const shared = prefix();
  try {
    await using crashed = startWorker(WORKER, [redis.url, server.url, shared, 'crash']);
    // Both its calls reached the server: it holds both slots when it is killed.
    await waitFor(() => seen.hung === 2, 15_000);
    await crashed.kill();
    await using after = startWorker(WORKER, [redis.url, server.url, shared, 'after']);
    const code = await after.exited;
    if (code !== 0) throw new Error(`worker exited with ${code}: ${after.stderr()}`);
    expect(after.events).toContainEqual({ result: 'done' });
  } finally {
    release();
  }
  expect(seen.arrivals).toHaveLength(3);
});

test('a rate of 3 per second holds across two worker processes, by the server’s clock', async () => {
  const intervalMs = 1_000;
  const requests = 3;
  const { server, seen, release } = await countingServer(0);
  await using _ = server;
  try {
    await together(server.url, 'rate', 9);
  } finally {
    release();
  }
  const arrivals = seen.arrivals.toSorted((a, b) => a - b);
  expect(arrivals).toHaveLength(18);
  // A fixed window lets `requests` through at the end of one window and as many at the start of
  // the next: any stretch of k windows' length holds at most k + 1 windows' worth.
  for (const windows of [1, 2, 3]) {
    for (const [at, first] of arrivals.entries()) {
      const within = arrivals.slice(at).filter((time) => time < first + windows * intervalMs);
      expect(within.length, `${windows} window(s) from arrival ${at}`).toBeLessThanOrEqual(
        (windows + 1) * requests,
      );
    }
  }
});
