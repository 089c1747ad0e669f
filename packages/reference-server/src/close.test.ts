import { describe, expect, it } from 'vitest';
import { startReferenceServer } from './index.ts';
import { rpc, TestClient } from './testing/client.ts';
import { SseReader } from './testing/sse.ts';

/** Resource kinds a leaking server would leave behind: listeners, sockets and timers. */
const WATCHED = ['TCPServerWrap', 'TCPSocketWrap', 'Timeout'];

function countWatched(): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(WATCHED.map((kind) => [kind, 0]));
  for (const kind of process.getActiveResourcesInfo()) {
    if (kind in counts) counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** Whether nothing was added since `before` (earlier tests' client sockets may still be closing). */
function noneAdded(now: Record<string, number>, before: Record<string, number>): boolean {
  return WATCHED.every((kind) => (now[kind] ?? 0) <= (before[kind] ?? 0));
}

/**
 * The counts once they hold still for 200 ms: the test runner's own short timers (up to about
 * 100 ms) would otherwise sit in the baseline and hide a leak of the same size.
 */
async function settledCounts(): Promise<Record<string, number>> {
  let counts = countWatched();
  for (let steady = 0, turn = 0; steady < 10 && turn < 100; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = countWatched();
    steady = JSON.stringify(now) === JSON.stringify(counts) ? steady + 1 : 0;
    counts = now;
  }
  return counts;
}

/** Observes a promise's outcome at once, so a rejection during close() is never unhandled. */
function outcome(promise: Promise<unknown>): Promise<'fulfilled' | 'rejected'> {
  return promise.then(
    () => 'fulfilled',
    () => 'rejected',
  );
}

const slow = (id: number) => rpc(id, 'tools/call', { name: 'slow', arguments: { ms: 600000 } });

describe('close', () => {
  it('close() leaves no listener, sockets or timers behind, even with streams, waits, tasks and delays pending', async () => {
    const before = await settledCounts();
    const server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const jsonClient = await TestClient.connect(server.urls.statefulJson);

    // An open GET stream, an in-flight request on an SSE stream and one on a JSON exchange.
    const standalone = await client.get();
    const slowSse = new SseReader((await client.post(slow(1))).body);
    const slowJson = outcome(jsonClient.post(slow(2)));
    // ping_client arms a 5 s timeout waiting for an answer that never comes.
    const pinging = new SseReader(
      (await client.post(rpc(3, 'tools/call', { name: 'ping_client', arguments: {} }))).body,
    );
    await pinging.readUntil((event) => event.data.includes('"ping"'));
    // A stream whose connection was cut, still being fed by its request in the background.
    server.faults.cutStreamAfter(1);
    await new SseReader((await client.post(slow(4))).body).readAll();
    // A task working in the background, and one waiting for the user.
    await jsonClient.result('tools/call', {
      name: 'slow_task',
      arguments: { ms: 600000 },
      task: {},
    });
    await jsonClient.result('tools/call', { name: 'task_needs_input', arguments: {}, task: {} });
    // A request held back by the delay fault.
    server.faults.delay(600000);
    const delayed = outcome(fetch(server.urls.stateless, { method: 'POST', body: '{}' }));
    while (server.log.at(-1)?.path !== '/mcp-stateless') {
      await new Promise((resolve) => setImmediate(resolve));
    }

    await server.close();

    expect(await standalone.reader.readAll()).toMatchObject({ events: [expect.anything()] });
    expect((await slowSse.readAll()).events.filter((event) => event.data !== '')).toEqual([]);
    await pinging.readAll();
    expect(await slowJson).toBe('rejected');
    expect(await delayed).toBe('rejected');
    // The client's end of a socket may close a few event-loop turns after the server's end;
    // turns rather than a timer, because a polling timer would itself show up as a Timeout.
    for (let turn = 0; turn < 1000 && !noneAdded(countWatched(), before); turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const after = countWatched();
    expect(
      noneAdded(after, before),
      `before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`,
    ).toBe(true);
  });

  it('close() is idempotent', async () => {
    const server = await startReferenceServer();
    await Promise.all([server.close(), server.close()]);
    await server.close();
    await expect(fetch(server.url)).rejects.toThrow();
  });

  it('await using closes the server at the end of the scope', async () => {
    let url = '';
    {
      await using server = await startReferenceServer();
      url = server.url;
      expect((await fetch(url, { method: 'PUT' })).status).toBe(405);
    }
    await expect(fetch(url, { method: 'PUT' })).rejects.toThrow();
  });
});
