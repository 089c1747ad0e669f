/**
 * The pace of polls for deferred work: the server's when it gives one (never closer), else a
 * backoff from 250 ms that doubles up to 5 s. A fake dialect and fake timers drive the call loop,
 * so the pauses are measured on the fake clock (and the backoff's jitter is pinned to none).
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { runCall } from './call.ts';
import { Deadline } from './deadline.ts';
import type { Dialect } from './dialects/dialect.ts';
import { Responder } from './handlers/responder.ts';
import { UrlCompletions } from './handlers/url-completions.ts';
import { memoryHandleStore } from './handles.ts';
import type { Outcome } from './outcome.ts';

beforeEach(() => {
  vi.useFakeTimers();
  // p-retry's jitter multiplies each delay by 1 + Math.random(): none, so the delays are exact.
  vi.spyOn(Math, 'random').mockReturnValue(0);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const URL = 'http://server.test/mcp';
const handle = { kind: 'task', id: 'task-1' } as const;
const working = (retryAfterMs: number): Outcome => ({ kind: 'pending', handle, retryAfterMs });
const done: Outcome = { kind: 'complete', result: { content: [] } };

/** Runs one deferred `tools/call` whose n-th poll (from 0) is answered by `poll(n)`. */
async function deferred(first: Outcome, poll: (n: number) => Outcome): Promise<number[]> {
  const polledAt: number[] = [];
  let sentAt = 0;
  const dialect = {
    name: 'fake',
    server: {
      protocolVersion: '2026-07-28',
      serverInfo: { name: 'fake', version: '1' },
      capabilities: {},
      instructions: undefined,
    },
    adapt: (operation) => operation,
    send: async () => {
      sentAt = Date.now();
      return first;
    },
    poll: async () => {
      polledAt.push(Date.now() - sentAt);
      return poll(polledAt.length - 1);
    },
    screenTools: (tools) => tools,
    freshFor: () => 0,
    notify: async () => {},
    close: async () => {},
  } as Dialect;
  using deadline = new Deadline({
    timeoutMs: 600_000,
    maxTimeoutMs: 600_000,
    context: { url: URL, method: 'tools/call' },
  });
  const running = runCall(
    dialect,
    { operation: { method: 'tools/call', params: { name: 't' }, idempotent: false, tool: 't' } },
    { deadline },
    {
      ask: new Responder(
        {
          onElicitation: undefined,
          elicitationModes: ['form', 'url'],
          onSampling: undefined,
          samplingTools: false,
          roots: undefined,
        },
        () => ({ name: 'fake', version: '1', protocolVersion: '2026-07-28', url: URL }),
      ).answer,
      maxInputRounds: 10,
      urlCompletions: new UrlCompletions(),
      autoRedeem: true,
      url: URL,
      handles: memoryHandleStore(),
      extendOnLife: false,
      warn: () => {},
    },
  );
  await vi.runAllTimersAsync();
  expect((await running).result).toEqual({ content: [] });
  return polledAt;
}

test('polls keep the pace the server asks for, each one from the answer before', async () => {
  const polledAt = await deferred(working(600), (n) => (n < 3 ? working(600) : done));
  expect(polledAt).toEqual([600, 1_200, 1_800, 2_400]);
});

test('a server that gives no pace is polled after 250 ms, then 500 ms, 1 s, ... up to 5 s', async () => {
  const polledAt = await deferred(working(0), (n) => (n < 6 ? working(0) : done));
  const gaps = polledAt.map((at, i) => at - (polledAt[i - 1] ?? 0));
  expect(gaps).toEqual([250, 250, 500, 1_000, 2_000, 4_000, 5_000]);
});
