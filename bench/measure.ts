/**
 * The measuring loops, the same for every client: a bounded run of calls at a concurrency,
 * timed per call, with the process's CPU time and the JS heap bytes allocated around it.
 */
import { GCProfiler, getHeapStatistics } from 'node:v8';
import type { Session } from './drivers/driver.ts';
import { percentile } from './stats.ts';

export interface LoadFigures {
  calls: number;
  callsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** User + system CPU of this (client) process per call; the server is another process. */
  cpuUsPerCall: number;
  /** JS heap bytes allocated per call (see allocatedSince). */
  allocBytesPerCall: number;
}

/**
 * JS heap bytes allocated while `profiler` ran. V8 has no allocation counter in Node's API, but
 * allocation is exactly the heap's growth between collections: before each GC minus after the
 * previous one, plus the growth since the last. Off-heap memory (Buffers) is not counted.
 */
function allocatedSince(profiler: GCProfiler, startUsed: number): number {
  const endUsed = getHeapStatistics().used_heap_size;
  const gcs = profiler.stop()?.statistics ?? [];
  let total = 0;
  let previous = startUsed;
  for (const gc of gcs) {
    total += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - previous);
    previous = gc.afterGC.heapStatistics.usedHeapSize;
  }
  return total + Math.max(0, endUsed - previous);
}

/**
 * Runs up to `count` calls (and for at most `maxMs`) with `concurrency` callers in flight.
 * Returns how many completed and each one's latency in ms.
 */
async function drive(
  call: () => Promise<unknown>,
  concurrency: number,
  count: number,
  maxMs: number,
): Promise<Float64Array> {
  const latencies = new Float64Array(count);
  const stopAt = performance.now() + maxMs;
  let started = 0;
  let done = 0;
  async function caller(): Promise<void> {
    while (started < count && performance.now() < stopAt) {
      started += 1;
      const t0 = performance.now();
      await call();
      latencies[done++] = performance.now() - t0;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, caller));
  return latencies.subarray(0, done);
}

export async function load(
  session: Session,
  tool: string,
  concurrency: number,
  sizes: { warmup: number; count: number; maxMs: number },
  args: Record<string, unknown> = {},
): Promise<LoadFigures> {
  const call = () => session.call(tool, args);
  await drive(call, concurrency, sizes.warmup, sizes.maxMs);
  const profiler = new GCProfiler();
  const startUsed = getHeapStatistics().used_heap_size;
  profiler.start();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const latencies = await drive(call, concurrency, sizes.count, sizes.maxMs);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const allocated = allocatedSince(profiler, startUsed);
  const calls = latencies.length;
  const sorted = Float64Array.from(latencies).sort();
  return {
    calls,
    callsPerSec: (calls / wallMs) * 1000,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    cpuUsPerCall: (cpu.user + cpu.system) / calls,
    allocBytesPerCall: allocated / calls,
  };
}

/** MB/s (10^6 bytes of event data) reading `k` events of `s` bytes, median of `repeat` calls. */
export async function parseRate(
  session: Session,
  tool: string,
  k: number,
  s: number,
  repeat: number,
): Promise<number> {
  await session.call(tool, { k, s });
  const rates: number[] = [];
  const stopAt = performance.now() + 10_000;
  for (let i = 0; i < repeat && performance.now() < stopAt; i++) {
    const t0 = performance.now();
    await session.call(tool, { k, s });
    rates.push((k * s) / 1e6 / ((performance.now() - t0) / 1000));
  }
  return rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)] ?? 0;
}

/** Bytes the heap kept per 1,000 calls: used heap after full GCs, before and after `count` calls. */
export async function heapGrowth(session: Session, tool: string, count: number): Promise<number> {
  const gc = globalThis.gc;
  if (!gc) throw new Error('heap growth needs --expose-gc');
  const settle = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    gc();
    return getHeapStatistics().used_heap_size;
  };
  // Sequential calls, at most `count` and at most 15 s; returns how many were made.
  const batch = async () => {
    const stopAt = performance.now() + 15_000;
    let made = 0;
    while (made < count && performance.now() < stopAt) {
      await session.call(tool, {});
      made += 1;
    }
    return made;
  };
  // A first batch fills what is filled once (JIT code, caches, pools); the second is measured.
  await batch();
  const before = await settle();
  const made = await batch();
  const after = await settle();
  return ((after - before) / made) * 1000;
}
