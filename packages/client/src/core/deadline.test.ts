import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadline, sleep } from './deadline.ts';
import { AbortedError, ClientClosedError, TimeoutError } from './errors.ts';

const context = { url: 'http://localhost/mcp', method: 'tools/call', tool: 'add' };
const open: Deadline[] = [];

function deadline(options: Partial<ConstructorParameters<typeof Deadline>[0]> = {}): Deadline {
  const d = new Deadline({ timeoutMs: 100, maxTimeoutMs: 1_000, context, ...options });
  open.push(d);
  return d;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  for (const d of open.splice(0)) d[Symbol.dispose]();
  vi.useRealTimers();
});

describe('Deadline', () => {
  it('aborts with a TimeoutError carrying the context once timeoutMs has passed', () => {
    const d = deadline();
    vi.advanceTimersByTime(99);
    expect(d.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(d.signal.aborted).toBe(true);
    expect(d.signal.reason).toBeInstanceOf(TimeoutError);
    expect(d.signal.reason).toMatchObject({ code: 'TIMEOUT', method: 'tools/call', tool: 'add' });
  });

  it('uses maxTimeoutMs when it is shorter than timeoutMs', () => {
    const d = deadline({ timeoutMs: 500, maxTimeoutMs: 50 });
    vi.advanceTimersByTime(50);
    expect(d.signal.reason).toBeInstanceOf(TimeoutError);
  });

  it("aborts with an AbortedError whose cause is the caller's reason when the caller aborts", () => {
    const caller = new AbortController();
    const d = deadline({ signal: caller.signal });
    const reason = new Error('user pressed stop');
    caller.abort(reason);
    expect(d.signal.reason).toBeInstanceOf(AbortedError);
    expect(d.signal.reason).toMatchObject({ code: 'ABORTED', cause: reason, method: 'tools/call' });
  });

  it('is aborted from the start when the caller signal already is', () => {
    const d = deadline({ signal: AbortSignal.abort('gone') });
    expect(d.signal.aborted).toBe(true);
    expect(d.signal.reason).toBeInstanceOf(AbortedError);
    expect((d.signal.reason as AbortedError).cause).toBe('gone');
    expect(d.remainingMs()).toBe(0);
  });

  it('extend() restarts the timeout from now', () => {
    const d = deadline({ timeoutMs: 100, maxTimeoutMs: 1_000 });
    vi.advanceTimersByTime(80);
    d.extend();
    vi.advanceTimersByTime(80);
    expect(d.signal.aborted).toBe(false);
    vi.advanceTimersByTime(20);
    expect(d.signal.reason).toBeInstanceOf(TimeoutError);
  });

  it('extend() never pushes the deadline past maxTimeoutMs from the start', () => {
    const d = deadline({ timeoutMs: 100, maxTimeoutMs: 250 });
    vi.advanceTimersByTime(90);
    d.extend();
    vi.advanceTimersByTime(90);
    d.extend();
    vi.advanceTimersByTime(69);
    expect(d.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(d.signal.reason).toBeInstanceOf(TimeoutError);
  });

  it('remainingMs() counts down from the start of the call', () => {
    const d = deadline({ timeoutMs: 100, maxTimeoutMs: 1_000 });
    vi.advanceTimersByTime(30);
    expect(d.remainingMs()).toBe(70);
  });

  it('remainingMs() counts down from the last extend(), within the hard cap', () => {
    const d = deadline({ timeoutMs: 100, maxTimeoutMs: 200 });
    vi.advanceTimersByTime(80);
    d.extend();
    vi.advanceTimersByTime(60);
    expect(d.remainingMs()).toBe(40);
    d.extend();
    vi.advanceTimersByTime(50);
    expect(d.remainingMs()).toBe(10);
  });

  it('dispose clears the timer so no timeout fires afterwards', () => {
    const d = deadline();
    d[Symbol.dispose]();
    vi.advanceTimersByTime(10_000);
    expect(d.signal.aborted).toBe(false);
  });

  it("dispose stops listening to the caller's signal", () => {
    const caller = new AbortController();
    const d = deadline({ signal: caller.signal });
    d[Symbol.dispose]();
    caller.abort();
    expect(d.signal.aborted).toBe(false);
  });

  it('abort(reason) ends the call at once with that reason, and the timer cannot replace it', () => {
    const d = deadline();
    const reason = new ClientClosedError();
    d.abort(reason);
    expect(d.signal.reason).toBe(reason);
    vi.advanceTimersByTime(1_000);
    expect(d.signal.reason).toBe(reason);
  });
});

describe('Deadline of a second or more (the shared ticker)', () => {
  it('fires within one tick after its time, with the elapsed time in the error', () => {
    const d = deadline({ timeoutMs: 1_500, maxTimeoutMs: 60_000 });
    vi.advanceTimersByTime(1_499);
    expect(d.aborted).toBe(false);
    vi.advanceTimersByTime(250);
    expect(d.aborted).toBe(true);
    expect(d.reason).toBeInstanceOf(TimeoutError);
    expect(d.signal.reason).toBe(d.reason);
  });

  it('extend() pushes it back; dispose() stops it', () => {
    const d = deadline({ timeoutMs: 1_000, maxTimeoutMs: 60_000 });
    const other = deadline({ timeoutMs: 1_000, maxTimeoutMs: 60_000 });
    vi.advanceTimersByTime(900);
    d.extend();
    other[Symbol.dispose]();
    vi.advanceTimersByTime(500);
    expect(d.aborted).toBe(false);
    vi.advanceTimersByTime(750);
    expect(d.aborted).toBe(true);
    expect(other.aborted).toBe(false);
  });

  it('keeps no referenced timer once nothing waits', () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout');
    vi.useRealTimers();
    const before = timers().length;
    const d = new Deadline({ timeoutMs: 60_000, maxTimeoutMs: 60_000, context });
    expect(timers().length).toBe(before + 1);
    d[Symbol.dispose]();
    expect(timers().length).toBe(before);
  });

  it('tells what listens to it, once, when it ends', () => {
    const d = deadline({ timeoutMs: 60_000, maxTimeoutMs: 60_000 });
    const heard: string[] = [];
    const first = { handleEvent: () => heard.push('first') };
    const second = { handleEvent: () => heard.push('second') };
    const gone = { handleEvent: () => heard.push('gone') };
    d.onEnd(first);
    d.onEnd(gone);
    d.onEnd(second);
    d.offEnd(gone);
    d.abort(new ClientClosedError());
    d.abort(new ClientClosedError());
    expect(heard).toEqual(['first', 'second']);
  });
});

describe('sleep', () => {
  it('resolves after the given time', async () => {
    let done = false;
    const slept = sleep(50, new AbortController().signal).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(49);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await slept;
    expect(done).toBe(true);
  });

  it("rejects with the signal's reason as soon as the signal aborts", async () => {
    const controller = new AbortController();
    const slept = sleep(10_000, controller.signal);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(slept).rejects.toBe(reason);
  });

  it('waits out a wait too long for a timer rather than firing at once', async () => {
    // A server may ask for `retry: 99999999999999`; a timer past 2^31-1 ms would fire at once.
    let done = false;
    void sleep(99_999_999_999_999, new AbortController().signal).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(done).toBe(false);
  });

  it("rejects at once with the signal's reason when the signal is already aborted", async () => {
    const reason = new Error('already');
    await expect(sleep(10_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
