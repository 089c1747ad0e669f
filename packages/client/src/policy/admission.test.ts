/**
 * The admission on its own, on fake timers: the order calls start in, how many are in flight, the
 * rate's window, a 429's hold, and a waiting call's deadline. Counts and order, never a time.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { Deadline } from '../core/deadline.ts';
import { AbortedError, TimeoutError } from '../core/errors.ts';
import { Admission, type AdmissionSettings } from './admission.ts';
import { memoryPolicyStore } from './memory-store.ts';
import type { PolicyNote } from './types.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const where = { url: 'http://server.test/mcp', method: 'tools/call', tool: 'add' };
const deadline = (timeoutMs = 60_000, signal?: AbortSignal) =>
  new Deadline({ timeoutMs, maxTimeoutMs: 600_000, signal, context: where });

function admission(settings: Partial<AdmissionSettings>, notes: PolicyNote[] = []): Admission {
  return new Admission({
    server: where.url,
    concurrency: Number.POSITIVE_INFINITY,
    rate: undefined,
    store: undefined,
    note: (note) => notes.push(note),
    warn: (error) => {
      throw error;
    },
    ...settings,
  });
}

/** Enters `count` calls, recording the order they start in. */
function enterMany(gate: Admission, count: number, started: number[]): Promise<void>[] {
  return Array.from({ length: count }, (_, index) => {
    const entered = gate.enter(deadline(), where);
    if (!entered) {
      started.push(index);
      return Promise.resolve();
    }
    return entered.then(() => {
      started.push(index);
    });
  });
}

test('no more than `concurrency` start; the rest start in order as slots come back', async () => {
  const gate = admission({ concurrency: 2 });
  const started: number[] = [];
  enterMany(gate, 5, started);
  await vi.advanceTimersByTimeAsync(0);
  expect(started).toEqual([0, 1]);
  gate.exit();
  await vi.advanceTimersByTimeAsync(0);
  expect(started).toEqual([0, 1, 2]);
  gate.exit();
  gate.exit();
  await vi.advanceTimersByTimeAsync(0);
  expect(started).toEqual([0, 1, 2, 3, 4]);
});

test('the rate lets `requests` start per interval, in order', async () => {
  const notes: PolicyNote[] = [];
  const gate = admission(
    { rate: { requests: 2, intervalMs: 1_000 }, store: memoryPolicyStore() },
    notes,
  );
  const started: number[] = [];
  enterMany(gate, 5, started);
  await vi.advanceTimersByTimeAsync(0);
  expect(started).toEqual([0, 1]);
  await vi.advanceTimersByTimeAsync(999);
  expect(started).toEqual([0, 1]);
  await vi.advanceTimersByTimeAsync(1);
  expect(started).toEqual([0, 1, 2, 3]);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(started).toEqual([0, 1, 2, 3, 4]);
  expect(notes.filter((note) => note.kind === 'queued')).toHaveLength(5);
});

test("a 429's hold stops every start until it has passed, and says which calls it slowed", async () => {
  const notes: PolicyNote[] = [];
  const gate = admission({ concurrency: 10 }, notes);
  gate.pushback(2_000);
  const started: number[] = [];
  enterMany(gate, 3, started);
  await vi.advanceTimersByTimeAsync(1_999);
  expect(started).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(started).toEqual([0, 1, 2]);
  expect(notes.map((note) => note.kind)).toEqual(['pushback', 'slowed', 'slowed', 'slowed']);
});

test('a waiting call whose deadline ends leaves the queue with its typed error', async () => {
  const gate = admission({ concurrency: 1 });
  expect(gate.enter(deadline(), where)).toBeUndefined();
  const timedOut = gate.enter(deadline(500), where)!;
  const caller = new AbortController();
  const aborted = gate.enter(deadline(60_000, caller.signal), where)!;
  const last = gate.enter(deadline(), where)!;
  const checkTimedOut = expect(timedOut).rejects.toBeInstanceOf(TimeoutError);
  caller.abort();
  await expect(aborted).rejects.toBeInstanceOf(AbortedError);
  await vi.advanceTimersByTimeAsync(1_000);
  await checkTimedOut;
  // The two that left took no slot: the next in line starts as soon as the first is done.
  let lastStarted = false;
  void last.then(() => {
    lastStarted = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  expect(lastStarted).toBe(false);
  gate.exit();
  await vi.advanceTimersByTimeAsync(0);
  expect(lastStarted).toBe(true);
});

test('close() leaves no timer behind a held queue', async () => {
  const gate = admission({ concurrency: 1 });
  gate.pushback(60_000);
  const waiting = deadline();
  const entered = gate.enter(waiting, where)!;
  entered.catch(() => {});
  await vi.advanceTimersByTimeAsync(0);
  expect(vi.getTimerCount()).toBeGreaterThan(0);
  gate.close();
  waiting.abort(new AbortedError(where));
  waiting[Symbol.dispose]();
  await vi.advanceTimersByTimeAsync(0);
  expect(vi.getTimerCount()).toBe(0);
});

/** A memory store with `limit`-wide slots that two admissions share, as Redis's leases are. */
function slotStore() {
  const store = memoryPolicyStore();
  const leases = new Set<string>();
  let next = 0;
  const shared = {
    ...store,
    held: leases,
    async acquireSlot(_server: string, limit: number): Promise<string | undefined> {
      if (leases.size >= limit) return undefined;
      const lease = `lease-${next++}`;
      leases.add(lease);
      return lease;
    },
    async releaseSlot(_server: string, lease: string): Promise<void> {
      leases.delete(lease);
    },
  };
  return shared;
}

test('a store with slots holds `concurrency` across the admissions sharing it', async () => {
  const store = slotStore();
  const gates = [admission({ concurrency: 2, store }), admission({ concurrency: 2, store })];
  const leases: Array<string | undefined>[] = [[], []];
  for (const [index, gate] of gates.entries()) {
    for (let call = 0; call < 3; call++) {
      void gate.enter(deadline(), where)!.then((lease) => leases[index]!.push(lease));
    }
  }
  await vi.advanceTimersByTimeAsync(0);
  // Two in flight between both, each with a lease of its own.
  expect(leases.flat()).toHaveLength(2);
  expect(store.held.size).toBe(2);
  // A slot given back by one admission goes to a waiter of either.
  const owner = leases.findIndex((held) => held.length > 0);
  gates[owner]!.exit(leases[owner]!.shift());
  await vi.advanceTimersByTimeAsync(1_000);
  expect(leases.flat()).toHaveLength(2);
  expect(store.held.size).toBe(2);
  // close() gives every lease back and stops the polling.
  for (const gate of gates) await gate.close();
  expect(store.held.size).toBe(0);
  await vi.advanceTimersByTimeAsync(0);
  expect(vi.getTimerCount()).toBe(0);
});
