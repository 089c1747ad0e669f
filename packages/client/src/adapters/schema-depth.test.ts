import { expect, test } from 'vitest';
import { nestsTooDeep, openSchema } from './schema-depth.ts';

/** `{ type: 'object', properties: { d: ... } }`, `levels` times over: two levels of nesting each. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < levels; level++) {
    schema = { type: 'object', properties: { d: schema } };
  }
  return schema;
}

test('nestsTooDeep tells apart a schema at the bound (64) from one past it, at any depth', () => {
  expect(nestsTooDeep(nested(31))).toBe(false);
  expect(nestsTooDeep(nested(33))).toBe(true);
  expect(nestsTooDeep(nested(100_000))).toBe(true);
  expect(nestsTooDeep('text')).toBe(false);
});

test('an open schema is a new object each time: one tool changing it changes no other', () => {
  expect(openSchema()).toEqual({ type: 'object', properties: {} });
  expect(openSchema()).not.toBe(openSchema());
});
