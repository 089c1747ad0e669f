import { expect, test } from 'vitest';
import { getOwn, setOwn } from './own.ts';

test('setOwn makes __proto__ an own property, leaving the prototype alone', () => {
  const record: Record<string, number> = {};
  setOwn(record, '__proto__', 1);
  setOwn(record, 'constructor', 2);
  expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  expect(Object.keys(record)).toEqual(['__proto__', 'constructor']);
  expect(getOwn(record, '__proto__')).toBe(1);
});

test('getOwn reads a record itself, never what it inherits', () => {
  expect(getOwn<unknown>({}, 'constructor')).toBeUndefined();
  expect(getOwn<unknown>({}, 'toString')).toBeUndefined();
  expect(getOwn(undefined, 'a')).toBeUndefined();
  expect(getOwn({ a: 1 }, 'a')).toBe(1);
});
