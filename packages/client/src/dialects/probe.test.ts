import { expect, test } from 'vitest';
import { datesIn } from './probe.ts';

test('the revisions an error names are read in order, each once', () => {
  expect(datesIn('supported: 2025-06-18, 2025-03-26 (not 2024-11-05); try 2025-06-18')).toEqual([
    '2025-06-18',
    '2025-03-26',
    '2024-11-05',
  ]);
});

test('a server that names a million dates gets a few hints, not a million', () => {
  const text = Array.from(
    { length: 1_000_000 },
    (_, i) => `2025-01-${String(i % 90).padStart(2, '0')}`,
  ).join(' ');
  const hints = datesIn(text);
  expect(hints.length).toBeLessThanOrEqual(32);
  // What reads the hints spreads them into a list: that must not overflow.
  expect(() => [].push(...(hints as never[]))).not.toThrow();
});
