import { test } from 'vitest';
import { runFuzz } from './fuzz.ts';

test('try', async () => {
  const figures = await runFuzz({
    cases: Number(process.env['CASES'] ?? 200),
    concurrency: Number(process.env['CONC'] ?? 32),
    seed: Number(process.env['SEED'] ?? 15),
    timeoutMs: 1000,
  });
  console.log(JSON.stringify(figures, null, 1));
}, 600_000);
