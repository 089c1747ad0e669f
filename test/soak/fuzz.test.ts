/**
 * The short fuzz: 150 clients (16 at a time, 1 s deadlines), each against a hostile server
 * drawn from a seed (hostile.ts).
 * No crash, no hang, every error typed, no credential sent to another origin, no request storm,
 * nothing left open. The long run (10,000 cases) is `bench/soak.ts`; its figures are in
 * bench/results.
 */
import { expect, test } from 'vitest';
import { runFuzz } from './fuzz.ts';

test('hostile servers: no crash, no hang, every error typed, no credential leaked', async () => {
  const figures = await runFuzz({ cases: 150, concurrency: 16, seed: 15, timeoutMs: 1_000 });
  expect(figures.anomalies).toEqual([]);
  expect(figures).toMatchObject({
    crashes: 0,
    hangs: 0,
    untyped: 0,
    internal: 0,
    leaks: 0,
    storms: 0,
    handlesAfterClose: 0,
  });
  // The grammar reached the client: redirects, floods and broken framing were all served, and
  // some cases got far enough to call a tool.
  const served = Object.keys(figures.served);
  for (const production of [
    'http: redirect to another origin',
    'traffic: notification flood',
    'sse: split mid-token, dropped',
    'payload: deep nesting',
    'envelope: wrong id',
  ]) {
    expect(served).toContain(production);
  }
  expect(figures.succeeded).toBeGreaterThan(0);
}, 180_000);
