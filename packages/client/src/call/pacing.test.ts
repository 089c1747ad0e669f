/**
 * The call loop's pauses, measured on a fake clock with a fake dialect, so nothing depends on how
 * fast the machine is:
 * - before asking again about a URL flow the user is still in: 500 ms, doubling, capped at 5 s;
 * - between polls for deferred work: the server's pace when it gives one (never closer), else a
 *   backoff from 250 ms that doubles up to 5 s (the backoff's jitter pinned to none).
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { Deadline } from '../core/deadline.ts';
import { TimeoutError, UrlElicitationRequiredError } from '../core/errors.ts';
import type { Outcome } from '../core/outcome.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { Responder } from '../handlers/responder.ts';
import type { ElicitationHandler } from '../handlers/types.ts';
import { UrlCompletions } from '../handlers/url-completions.ts';
import { runCall } from './call.ts';
import { memoryHandleStore } from './handles.ts';

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

/**
 * A dialect whose n-th send (from 1) is answered by `send(n)` and n-th poll (from 0) by `poll(n)`;
 * it notes the fake time of each.
 */
function fakeDialect(
  protocolVersion: string,
  send: (sent: number) => Outcome,
  poll?: (polled: number) => Outcome,
): { dialect: Dialect; sentAt: number[]; polledAt: number[] } {
  const sentAt: number[] = [];
  const polledAt: number[] = [];
  const dialect = {
    name: 'fake',
    server: {
      protocolVersion,
      serverInfo: { name: 'fake', version: '1' },
      capabilities: {},
      instructions: undefined,
    },
    adapt: (operation) => operation,
    send: async (_operation, _context, read) => {
      sentAt.push(Date.now());
      return read(send(sentAt.length));
    },
    ...(poll && {
      poll: async () => {
        polledAt.push(Date.now());
        return poll(polledAt.length - 1);
      },
    }),
    screenTools: (tools) => tools,
    freshFor: () => 0,
    notify: async () => {},
    close: async () => {},
  } as Dialect;
  return { dialect, sentAt, polledAt };
}

/** Runs one `tools/call` through the call loop to its end, on the fake clock. */
async function call(
  dialect: Dialect,
  timeoutMs: number,
  onElicitation?: ElicitationHandler,
): Promise<{ result: unknown } | { error: unknown }> {
  const { answer } = new Responder(
    {
      onElicitation,
      elicitationModes: ['form', 'url'],
      onSampling: undefined,
      samplingTools: false,
      roots: undefined,
    },
    () => ({
      name: 'fake',
      version: '1',
      protocolVersion: dialect.server.protocolVersion,
      url: URL,
    }),
  );
  using deadline = new Deadline({
    timeoutMs,
    maxTimeoutMs: timeoutMs,
    context: { url: URL, method: 'tools/call' },
  });
  const running = runCall(
    dialect,
    { operation: { method: 'tools/call', params: { name: 't' }, idempotent: false, tool: 't' } },
    { deadline },
    {
      ask: answer,
      maxInputRounds: 10,
      urlCompletions: new UrlCompletions(),
      autoRedeem: true,
      url: URL,
      handles: memoryHandleStore(),
      extendOnLife: false,
      warn: () => {},
    },
  ).then(
    ({ result }) => ({ result }),
    (error: unknown) => ({ error }),
  );
  await vi.runAllTimersAsync();
  return running;
}

/** The pauses between one send and the next. */
function gaps(sentAt: readonly number[]): number[] {
  return sentAt.slice(1).map((at, index) => at - sentAt[index]!);
}

// A URL flow the user is still in.

/** The user accepts every URL flow; `asked` counts them. */
function acceptingUser(): { asked: number; onElicitation: ElicitationHandler } {
  const user = {
    asked: 0,
    onElicitation: () => {
      user.asked += 1;
      return { action: 'accept' as const };
    },
  };
  return user;
}

const urlRequired = (elicitationId?: string): Outcome => ({
  kind: 'failure',
  error: new UrlElicitationRequiredError('open the link first', {
    url: URL,
    method: 'tools/call',
    data: {
      elicitations: [{ mode: 'url', message: 'go', url: 'https://example.com/x', elicitationId }],
    },
  }),
});

test('a -32042 the server repeats is sent again after 500 ms, 1 s, 2 s, 4 s, then every 5 s', async () => {
  const user = acceptingUser();
  const { dialect, sentAt } = fakeDialect('2025-11-25', (sent) =>
    sent <= 7 ? urlRequired('e1') : { kind: 'complete', result: { content: [] } },
  );
  const outcome = await call(dialect, 60_000, user.onElicitation);
  expect({ ...outcome, asked: user.asked }).toEqual({ result: { content: [] }, asked: 1 });
  expect(gaps(sentAt)).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
});

test('a -32042 that names no elicitationId is paced the same, never sent in a spin', async () => {
  const user = acceptingUser();
  const { dialect, sentAt } = fakeDialect('2025-11-25', () => urlRequired());
  const outcome = (await call(dialect, 10_000, user.onElicitation)) as { error: unknown };
  // Asked once; sent at 0, 0.5, 1.5, 3.5 and 7.5 s; the deadline at 10 s ends the pause after.
  expect(user.asked).toBe(1);
  expect(outcome.error).toBeInstanceOf(TimeoutError);
  expect(gaps(sentAt)).toEqual([500, 1_000, 2_000, 4_000]);
});

test('a 2026-07-28 input_required that only repeats an accepted URL flow is paced the same', async () => {
  const user = acceptingUser();
  const question = {
    method: 'elicitation/create',
    params: { mode: 'url', message: 'go', url: 'https://example.com/x', elicitationId: 'e2' },
  };
  const { dialect, sentAt } = fakeDialect('2025-11-25', (sent) =>
    sent <= 4
      ? { kind: 'input', questions: { login: question }, state: undefined }
      : { kind: 'complete', result: { content: [] } },
  );
  const outcome = await call(dialect, 60_000, user.onElicitation);
  expect({ ...outcome, asked: user.asked }).toEqual({ result: { content: [] }, asked: 1 });
  // The first round asks the user and is sent at once; the repeats wait.
  expect(gaps(sentAt)).toEqual([0, 500, 1_000, 2_000]);
});

// Deferred work.

const handle = { kind: 'task', id: 'task-1' } as const;
const working = (retryAfterMs: number): Outcome => ({ kind: 'pending', handle, retryAfterMs });
const done: Outcome = { kind: 'complete', result: { content: [] } };

/** Runs one deferred call whose n-th poll (from 0) is answered by `poll(n)`: when each came. */
async function deferred(first: Outcome, poll: (n: number) => Outcome): Promise<number[]> {
  const { dialect, sentAt, polledAt } = fakeDialect('2026-07-28', () => first, poll);
  const outcome = await call(dialect, 600_000);
  expect(outcome).toEqual({ result: { content: [] } });
  // Each poll's time since the call was sent.
  return polledAt.map((at) => at - sentAt[0]!);
}

test('polls keep the pace the server asks for, each one from the answer before', async () => {
  const polledAt = await deferred(working(600), (n) => (n < 3 ? working(600) : done));
  expect(polledAt).toEqual([600, 1_200, 1_800, 2_400]);
});

test('a server that gives no pace is polled after 250 ms, then 500 ms, 1 s, ... up to 5 s', async () => {
  const polledAt = await deferred(working(0), (n) => (n < 6 ? working(0) : done));
  const pauses = polledAt.map((at, i) => at - (polledAt[i - 1] ?? 0));
  expect(pauses).toEqual([250, 250, 500, 1_000, 2_000, 4_000, 5_000]);
});
