/**
 * What the soak and the fuzz watch in the client's process: whether an operation settles in the
 * time it is allowed, the sockets and timers left behind, and how late the event loop ran.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export type Settled<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'error'; error: unknown }
  | { kind: 'hang' };

/**
 * A promise's outcome, or `hang` when it has not settled in `ms`. The verdict waits for one more
 * turn of the event loop after the timer: after a stall of the whole process, timers run before
 * the I/O that was waiting, and an answer already in a socket must not count as a hang.
 */
export function within<T>(promise: Promise<T>, ms: number): Promise<Settled<T>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      setImmediate(() => setTimeout(() => resolve({ kind: 'hang' }), 100));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve({ kind: 'ok', value });
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({ kind: 'error', error });
      },
    );
  });
}

/** Open sockets and timers in this process: what a client could leave behind. */
export function handles(): number {
  return process
    .getActiveResourcesInfo()
    .filter((kind) => kind === 'TCPSocketWrap' || kind === 'Timeout').length;
}

/** The count once it has stopped changing for 200 ms (earlier work settles a few turns later). */
export async function settledHandles(): Promise<number> {
  let count = handles();
  for (let turn = 0, steady = 0; turn < 100 && steady < 10; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = handles();
    steady = now === count ? steady + 1 : 0;
    count = now;
  }
  return count;
}

/** What stays above `baseline` once closed clients' sockets are released (up to 5 s). */
export async function handlesAbove(baseline: number): Promise<number> {
  for (let waited = 0; waited < 5_000 && handles() > baseline; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Math.max(0, handles() - baseline);
}

/**
 * How late the event loop ran while `run` ran, in ms (the longest delay, and the 99th
 * percentile): on a machine shared with other work, a late loop makes deadlines fire late and
 * calls time out, which the figures should be read against.
 */
export async function timedLoop<T>(
  run: () => Promise<T>,
): Promise<{ result: T; loopDelayMaxMs: number; loopDelayP99Ms: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  try {
    const result = await run();
    return {
      result,
      loopDelayMaxMs: Math.round(histogram.max / 1e6),
      loopDelayP99Ms: Math.round(histogram.percentile(99) / 1e6),
    };
  } finally {
    histogram.disable();
  }
}
