import { test } from 'vitest';
import { runSoak } from './soak.ts';

test('try', async () => {
  for (const era of ['stateful', 'stateless'] as const) {
    const figures = await runSoak({
      era,
      calls: 1500,
      concurrency: 32,
      seed: 15,
      rate: Number(process.env.RATE ?? 0.12),
      ...(process.env.KINDS ? { kinds: process.env.KINDS.split(',') as never } : {}),
      timeoutMs: 5000,
      retry: { minDelayMs: 5, maxDelayMs: 100 },
    });
    console.log(JSON.stringify(figures, null, 1));
  }
}, 300_000);
