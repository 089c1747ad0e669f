/**
 * The call policy's pace, seen from the server: how many calls it has in flight at once, which
 * calls it never received, and when (by its own clock) calls arrived after it answered 429.
 */
import {
  AbortedError,
  createMcpClient,
  HttpStatusError,
  type PolicyNote,
  TimeoutError,
} from '@toolwire/client';
import { HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { mcpServer, result, startFaultServer } from '../helpers/fault-server.ts';

const done = (id: string | number | undefined) =>
  result(id, { content: [{ type: 'text', text: 'done' }] });
/** The `n` argument each test call carries, to tell the calls apart on the server. */
const nOf = (params: unknown) =>
  (params as { arguments?: { n?: number } } | undefined)?.arguments?.n ?? -1;
const tick = () => new Promise((resolve) => setTimeout(resolve, 2));

test('50 calls with a limit of 4: the server never has more than 4 in flight', async () => {
  let inFlight = 0;
  let most = 0;
  let seen = 0;
  // The first calls are held until four are in: the limit is reached, whatever the machine's load.
  let fourIn!: () => void;
  const four = new Promise<void>((resolve) => {
    fourIn = resolve;
  });
  await using server = await startFaultServer(
    mcpServer(async (message) => {
      if (message.method !== 'tools/call') return undefined;
      seen += 1;
      inFlight += 1;
      most = Math.max(most, inFlight);
      if (inFlight === 4) fourIn();
      await (seen <= 4 ? four : tick());
      inFlight -= 1;
      return done(message.id);
    }),
  );
  await using client = createMcpClient(server.url, { policy: { concurrency: 4 } });
  const notes: PolicyNote[] = [];
  client.on('policy', (note) => notes.push(note));
  await client.listTools();
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, n) => client.callTool('unsafe', { n })),
  );
  expect(results).toHaveLength(50);
  expect(server.callsOf('tools/call')).toHaveLength(50);
  expect(most).toBe(4);
  // The 46 calls that found every slot taken said so.
  expect(notes.filter((note) => note.kind === 'queued')).toHaveLength(46);
});

test('a call waiting for a slot still times out or aborts, typed, and is never sent', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await using server = await startFaultServer(
    mcpServer(async (message) => {
      if (message.method !== 'tools/call') return undefined;
      if (nOf(message.params) === 0) await held;
      return done(message.id);
    }),
  );
  await using client = createMcpClient(server.url, { policy: { concurrency: 1 } });
  await client.listTools();
  const first = client.callTool('unsafe', { n: 0 });
  const caller = new AbortController();
  const timedOut = client.callTool('unsafe', { n: 1 }, { timeoutMs: 50 });
  const aborted = client.callTool('unsafe', { n: 2 }, { signal: caller.signal });
  const last = client.callTool('unsafe', { n: 3 });
  await expect(timedOut).rejects.toBeInstanceOf(TimeoutError);
  caller.abort();
  await expect(aborted).rejects.toBeInstanceOf(AbortedError);
  release();
  await first;
  await last;
  const sent = server.callsOf('tools/call').map((call) => nOf(call.body?.['params']));
  expect(sent).toEqual([0, 3]);
});

test("a 429's Retry-After holds every call to the server, not only the one that got it", async () => {
  const retryAfterMs = 1_000;
  let answered429At: number | undefined;
  const arrivals: { n: number; at: number }[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let calls = 0;
  await using server = await startFaultServer(
    mcpServer(async (message) => {
      if (message.method !== 'tools/call') return undefined;
      const n = nOf(message.params);
      arrivals.push({ n, at: Date.now() });
      calls += 1;
      // The 4th call in is refused; the three before it wait until the client has heard that.
      if (calls === 4) {
        answered429At = Date.now();
        return new HttpResponse('slow down', {
          status: 429,
          headers: { 'retry-after': String(retryAfterMs / 1000) },
        });
      }
      if (calls < 4) await held;
      return done(message.id);
    }),
  );
  await using client = createMcpClient(server.url, {
    policy: { concurrency: 4 },
    retry: { retries: 0 },
  });
  client.on('policy', (note) => {
    if (note.kind === 'pushback') release();
  });
  await client.listTools();
  const outcomes = await Promise.allSettled(
    Array.from({ length: 12 }, (_, n) => client.callTool('unsafe', { n })),
  );
  // Every call ended: the one refused with its typed 429, the others with their results.
  const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
  expect(refused).toHaveLength(1);
  const error = (refused[0] as PromiseRejectedResult).reason as HttpStatusError;
  expect(error).toBeInstanceOf(HttpStatusError);
  expect(error.status).toBe(429);
  expect(arrivals).toHaveLength(12);
  // By the server's own clock: nothing arrived after its 429 before the time it asked for.
  const after = arrivals.slice(4);
  expect(after).toHaveLength(8);
  for (const { at } of after) expect(at).toBeGreaterThanOrEqual(answered429At! + retryAfterMs);
});

test('with retries on, the 429 slows the other calls while the refused one is still retrying', async () => {
  const retryAfterMs = 1_000;
  let answered429At: number | undefined;
  const arrivals: { n: number; at: number }[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let calls = 0;
  await using server = await startFaultServer(
    mcpServer(async (message) => {
      if (message.method !== 'tools/call') return undefined;
      const n = nOf(message.params);
      arrivals.push({ n, at: Date.now() });
      calls += 1;
      if (calls === 4) {
        answered429At = Date.now();
        return new HttpResponse('slow down', {
          status: 429,
          headers: { 'retry-after': String(retryAfterMs / 1000) },
        });
      }
      if (calls < 4) await held;
      return done(message.id);
    }),
  );
  await using client = createMcpClient(server.url, { policy: { concurrency: 4 } });
  const kinds: string[] = [];
  client.on('policy', (note) => {
    kinds.push(note.kind);
    if (note.kind === 'pushback') release();
  });
  await client.listTools();
  const results = await Promise.all(
    Array.from({ length: 8 }, (_, n) => client.callTool('unsafe', { n })),
  );
  expect(results).toHaveLength(8);
  expect(kinds).toContain('pushback');
  expect(kinds).toContain('slowed');
  const refusedN = arrivals[3]!.n;
  // The refused call's own resend is retry.ts's to pace; every other call waited for the hold.
  const others = arrivals.slice(4).filter(({ n }) => n !== refusedN);
  expect(others).toHaveLength(4);
  for (const { at } of others) expect(at).toBeGreaterThanOrEqual(answered429At! + retryAfterMs);
});

test("a hostile Retry-After holds the others no longer than the client's maxRetryAfterMs", async () => {
  let refused = false;
  await using server = await startFaultServer(
    mcpServer(async (message) => {
      if (message.method !== 'tools/call') return undefined;
      if (!refused) {
        refused = true;
        // About 317 years: were it kept, every call to the server would wait out its deadline.
        return new HttpResponse('slow down', {
          status: 429,
          headers: { 'retry-after': '9999999999' },
        });
      }
      return done(message.id);
    }),
  );
  await using client = createMcpClient(server.url, {
    policy: { concurrency: 4 },
    retry: { retries: 0, maxRetryAfterMs: 300 },
  });
  const held: number[] = [];
  client.on('policy', (note) => {
    if (note.kind === 'pushback') held.push(note.retryAfterMs);
  });
  await client.listTools();
  await expect(client.callTool('unsafe', { n: 0 })).rejects.toMatchObject({ status: 429 });
  expect(held).toEqual([300]);
  // The next call starts once the capped hold is over, well inside its own deadline.
  const next = await client.callTool('unsafe', { n: 1 }, { timeoutMs: 10_000 });
  expect(next.isError).not.toBe(true);
});
