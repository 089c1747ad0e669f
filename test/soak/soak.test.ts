/**
 * The short soak, in both eras: one client, 1,000 calls each at concurrency 32, through a proxy
 * that gives 12% of requests one of twelve faults, to a server that counts how often each call
 * ran. Seeded: the same seed gives the same faults to the same calls. The long run (20,000 calls
 * at concurrency 64) is `bench/soak.ts`; its figures are in bench/results.
 */
import { expect, test } from 'vitest';
import { FAULT_KINDS } from './fault-proxy.ts';
import { type Era, runSoak } from './soak.ts';

const SEED = 15;

test.each(['stateful', 'stateless'] as Era[])(
  '%s: nothing ran twice, nothing was lost, every error was typed, nothing was left open',
  async (era) => {
    const figures = await runSoak({
      era,
      calls: 1_000,
      concurrency: 32,
      seed: SEED,
      rate: 0.12,
      timeoutMs: 5_000,
      retry: { minDelayMs: 5, maxDelayMs: 100 },
    });
    expect(figures.anomalies).toEqual([]);
    expect(figures).toMatchObject({
      duplicates: 0,
      lost: 0,
      hangs: 0,
      untyped: 0,
      unhandled: 0,
      misrouted: 0,
      falseNotRun: 0,
      handlesAfterClose: 0,
    });
    // The run met every fault its era can meet (a stateless server has no session to expire).
    const met = FAULT_KINDS.filter((kind) => figures.byKind[kind].injected > 0);
    expect(met).toEqual(FAULT_KINDS.filter((kind) => era === 'stateful' || kind !== 'expire'));
    // And the faults did bite: calls failed, and a trusting caller sent some again.
    expect(figures.failed).toBeGreaterThan(0);
    expect(figures.resentOnTrust).toBeGreaterThan(0);
  },
  120_000,
);
