/**
 * The pause before asking again about a URL flow the user is still in: 500 ms, doubling, capped at
 * 5 s. A fake dialect and fake timers drive the call loop, so the pauses are measured on the fake
 * clock and nothing depends on how fast the machine is.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { runCall } from './call.ts';
import { Deadline } from './deadline.ts';
import type { Dialect } from './dialects/dialect.ts';
import { TimeoutError, UrlElicitationRequiredError } from './errors.ts';
import { Responder } from './handlers/responder.ts';
import { UrlCompletions } from './handlers/url-completions.ts';
import { memoryHandleStore } from './handles.ts';
import type { Outcome } from './outcome.ts';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

const URL = 'http://server.test/mcp';

/** A dialect whose every send is answered by `answer`, and which notes the fake time of each. */
function fakeDialect(answer: (sent: number) => Outcome): { dialect: Dialect; sentAt: number[] } {
  const sentAt: number[] = [];
  const dialect: Dialect = {
    name: 'fake',
    server: {
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'fake', version: '1' },
      capabilities: {},
      instructions: undefined,
    },
    adapt: (operation) => operation,
    send: async () => {
      sentAt.push(Date.now());
      return answer(sentAt.length);
    },
    screenTools: (tools) => tools,
    freshFor: () => 0,
    notify: async () => {},
    close: async () => {},
  } as Dialect;
  return { dialect, sentAt };
}

/** Runs one `tools/call` through the call loop, the user accepting every URL flow. */
async function call(dialect: Dialect, timeoutMs: number): Promise<unknown> {
  let asked = 0;
  const { answer } = new Responder(
    {
      onElicitation: () => {
        asked += 1;
        return { action: 'accept' };
      },
      elicitationModes: ['form', 'url'],
      onSampling: undefined,
      samplingTools: false,
      roots: undefined,
    },
    () => ({ name: 'fake', version: '1', protocolVersion: '2025-11-25', url: URL }),
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
    ({ result }) => ({ result, asked }),
    (error: unknown) => ({ error, asked }),
  );
  await vi.runAllTimersAsync();
  return running;
}

/** The pauses between one send and the next. */
function gaps(sentAt: readonly number[]): number[] {
  return sentAt.slice(1).map((at, index) => at - sentAt[index]!);
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
  const { dialect, sentAt } = fakeDialect((sent) =>
    sent <= 7 ? urlRequired('e1') : { kind: 'complete', result: { content: [] } },
  );
  const outcome = await call(dialect, 60_000);
  expect(outcome).toEqual({ result: { content: [] }, asked: 1 });
  expect(gaps(sentAt)).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
});

test('a -32042 that names no elicitationId is paced the same, never sent in a spin', async () => {
  const { dialect, sentAt } = fakeDialect(() => urlRequired());
  const outcome = (await call(dialect, 10_000)) as { error: unknown; asked: number };
  // Asked once; sent at 0, 0.5, 1.5, 3.5 and 7.5 s; the deadline at 10 s ends the pause after.
  expect(outcome.asked).toBe(1);
  expect(outcome.error).toBeInstanceOf(TimeoutError);
  expect(gaps(sentAt)).toEqual([500, 1_000, 2_000, 4_000]);
});

test('a 2026-07-28 input_required that only repeats an accepted URL flow is paced the same', async () => {
  const question = {
    method: 'elicitation/create',
    params: { mode: 'url', message: 'go', url: 'https://example.com/x', elicitationId: 'e2' },
  };
  const { dialect, sentAt } = fakeDialect((sent) =>
    sent <= 4
      ? { kind: 'input', questions: { login: question }, state: undefined }
      : { kind: 'complete', result: { content: [] } },
  );
  const outcome = await call(dialect, 60_000);
  expect(outcome).toEqual({ result: { content: [] }, asked: 1 });
  // The first round asks the user and is sent at once; the repeats wait.
  expect(gaps(sentAt)).toEqual([0, 500, 1_000, 2_000]);
});
