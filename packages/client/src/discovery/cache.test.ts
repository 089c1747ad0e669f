import { expect, test } from 'vitest';
import { freshFor, mayStore } from './cache.ts';

test('Cache-Control: max-age in ms, capped at a day; no-cache and no-store are never fresh', () => {
  expect(freshFor('public, max-age=60')).toBe(60_000);
  expect(freshFor('max-age=999999999')).toBe(86_400_000);
  expect(freshFor('no-cache, max-age=60')).toBe(0);
  expect(freshFor(undefined)).toBe(0);
  expect(freshFor('max-age=abc')).toBe(0);
  expect(mayStore('no-store')).toBe(false);
  expect(mayStore('max-age=5')).toBe(true);
});
