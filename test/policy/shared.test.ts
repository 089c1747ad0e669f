/**
 * The policy shared by workers in separate processes through one Redis: a result one worker got
 * is reused by another (one execution on the server), and a 429 one worker met holds the next
 * worker's calls until the server's Retry-After has passed, by the server's own clock.
 */
import { randomBytes } from 'node:crypto';
import { HttpResponse } from 'msw';
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

const WORKER = new URL('./worker.ts', import.meta.url);

async function run(serverUrl: string, prefix: string, job: string) {
  const worker = startWorker(WORKER, [redis.url, serverUrl, prefix, job]);
  const code = await worker.exited;
  if (code !== 0) throw new Error(`worker exited with ${code}: ${worker.stderr()}`);
  return worker.events;
}

const TOOLS = [
  {
    name: 'lookup',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true, idempotentHint: true },
  },
  { name: 'unsafe', inputSchema: { type: 'object' } },
];

test('a result one worker got is reused by another process: one execution', async () => {
  let executed = 0;
  await using server = await startFaultServer(
    mcpServer((message) => {
      if (message.method === 'tools/list') return result(message.id, { tools: TOOLS });
      if (message.method !== 'tools/call') return undefined;
      executed += 1;
      return result(message.id, { content: [{ type: 'text', text: `run ${executed}` }] });
    }),
  );
  const prefix = `policy-${randomBytes(4).toString('hex')}:`;
  const first = await run(server.url, prefix, 'lookup');
  const second = await run(server.url, prefix, 'lookup');
  expect(first).toContainEqual({ result: 'run 1' });
  expect(second).toContainEqual({ result: 'run 1' });
  expect(second).toContainEqual({ policy: 'reused' });
  expect(executed).toBe(1);
});

test("a 429 one worker met holds another worker's calls until its Retry-After has passed", async () => {
  const retryAfterMs = 2_000;
  const arrivals: number[] = [];
  let answered429At: number | undefined;
  await using server = await startFaultServer(
    mcpServer((message) => {
      if (message.method === 'tools/list') return result(message.id, { tools: TOOLS });
      if (message.method !== 'tools/call') return undefined;
      arrivals.push(Date.now());
      if (arrivals.length === 1) {
        answered429At = Date.now();
        return new HttpResponse('slow down', {
          status: 429,
          headers: { 'retry-after': String(retryAfterMs / 1000) },
        });
      }
      return result(message.id, { content: [{ type: 'text', text: 'done' }] });
    }),
  );
  const prefix = `policy-${randomBytes(4).toString('hex')}:`;
  // The second worker is up and connected before the first meets the 429: its start-up time,
  // slow on a busy machine, cannot outlast the hold.
  await using later = startWorker(WORKER, [redis.url, server.url, prefix, 'later'], {}, [], {
    stdin: true,
  });
  await waitFor(() => later.events.some((event) => event['ready'] === true), 15_000);
  const first = await run(server.url, prefix, 'call');
  expect(first).toContainEqual({ code: 'HTTP_STATUS', status: 429 });
  expect(first).toContainEqual({ held: true });
  later.child.stdin!.write('go\n');
  expect(await later.exited).toBe(0);
  const second = later.events;
  expect(second).toContainEqual({ result: 'done' });
  expect(second).toContainEqual({ policy: 'slowed' });
  expect(arrivals).toHaveLength(2);
  // By the server's clock: the second worker's call came no sooner than the server allowed.
  expect(arrivals[1]).toBeGreaterThanOrEqual(answered429At! + retryAfterMs);
});
