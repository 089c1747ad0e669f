/**
 * The test process's memory while something hostile runs: sampled after a full collection, so
 * what is counted is what the client holds, not garbage it has yet to collect. `gc` is exposed
 * for this process alone (V8's flag, then the function from a fresh context), whatever flags
 * vitest was started with.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** What the heap and the buffers outside it hold, in bytes, after a full collection. */
export function heldBytes(): number {
  gc();
  // `external` counts the buffers (and array buffers) outside the heap.
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/**
 * Runs `work`, sampling what is held every `everyMs` meanwhile; resolves with its outcome and
 * the largest growth over what was held before it started.
 */
export async function peakGrowth<T>(
  work: () => Promise<T>,
  everyMs = 200,
): Promise<{ outcome: T; growth: number }> {
  const before = heldBytes();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, heldBytes());
  }, everyMs);
  try {
    const outcome = await work();
    peak = Math.max(peak, heldBytes());
    return { outcome, growth: peak - before };
  } finally {
    clearInterval(timer);
  }
}

export const MiB = 1024 * 1024;
