import { expect, test } from 'vitest';
import { inlineRefs, MAX_INLINED_NODES } from './schema.ts';

test('a $ref into $defs is replaced by its definition and $defs is dropped', () => {
  const schema = {
    type: 'object',
    properties: { target: { $ref: '#/$defs/point' } },
    required: ['target'],
    $defs: { point: { type: 'object', properties: { x: { type: 'number' } } } },
  };
  expect(inlineRefs(schema)).toEqual({
    type: 'object',
    properties: { target: { type: 'object', properties: { x: { type: 'number' } } } },
    required: ['target'],
  });
});

test('anyOf, oneOf and allOf keep every branch, each branch inlined on its own', () => {
  const schema = {
    type: 'object',
    properties: {
      shape: {
        anyOf: [
          { $ref: '#/definitions/circle' },
          { type: 'object', properties: { side: { type: 'number' } }, required: ['side'] },
        ],
      },
      mode: { oneOf: [{ const: 'a' }, { const: 'b' }] },
      both: { allOf: [{ minimum: 0 }, { maximum: 9 }] },
    },
    definitions: {
      circle: { type: 'object', properties: { radius: { type: 'number' } }, required: ['radius'] },
    },
  };
  const inlined = inlineRefs(schema);
  expect(inlined['properties']).toEqual({
    shape: {
      anyOf: [
        { type: 'object', properties: { radius: { type: 'number' } }, required: ['radius'] },
        { type: 'object', properties: { side: { type: 'number' } }, required: ['side'] },
      ],
    },
    mode: { oneOf: [{ const: 'a' }, { const: 'b' }] },
    both: { allOf: [{ minimum: 0 }, { maximum: 9 }] },
  });
});

test('a recursive $ref is expanded a bounded number of times, then left open', () => {
  const schema = {
    type: 'object',
    properties: { root: { $ref: '#/$defs/node' } },
    $defs: {
      node: {
        type: 'object',
        properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
      },
    },
  };
  const depthOf = (node: unknown): number => {
    const items = (node as { properties?: { children?: { items?: unknown } } }).properties?.children
      ?.items;
    return items === undefined ? 0 : 1 + depthOf(items);
  };
  const root = (max: number) =>
    (inlineRefs(schema, max)['properties'] as Record<string, unknown>)['root'];
  expect(depthOf(root(0))).toBe(1);
  expect(depthOf(root(2))).toBe(3);
  // The last level is an open schema, never a dangling $ref.
  expect(JSON.stringify(root(2))).not.toContain('$ref');
});

test('annotations beside a $ref merge; constraints beside it become an allOf', () => {
  const schema = {
    type: 'object',
    properties: {
      described: { $ref: '#/$defs/id', description: 'the order id' },
      constrained: { $ref: '#/$defs/id', maxLength: 4 },
    },
    $defs: { id: { type: 'string', description: 'an id' } },
  };
  expect(inlineRefs(schema)['properties']).toEqual({
    described: { type: 'string', description: 'the order id' },
    constrained: { allOf: [{ type: 'string', description: 'an id' }], maxLength: 4 },
  });
});

test('data that looks like a $ref (enum, const, default, a property named $ref) is left alone', () => {
  const schema = {
    type: 'object',
    properties: {
      $ref: { type: 'string' },
      literal: { const: { $ref: '#/$defs/x' }, default: { $ref: 'y' } },
    },
    $defs: { x: { type: 'number' } },
  };
  expect(inlineRefs(schema)['properties']).toEqual({
    $ref: { type: 'string' },
    literal: { const: { $ref: '#/$defs/x' }, default: { $ref: 'y' } },
  });
});

test('remote and broken refs become open schemas, never fetched', () => {
  const schema = {
    type: 'object',
    properties: {
      remote: { $ref: 'https://example.com/schema.json' },
      broken: { $ref: '#/$defs/missing' },
      escaped: { $ref: '#/$defs/a~1b' },
    },
    $defs: { 'a/b': { type: 'boolean' } },
  };
  expect(inlineRefs(schema)['properties']).toEqual({
    remote: {},
    broken: {},
    escaped: { type: 'boolean' },
  });
});

test('an object schema without properties gets an empty properties map; the input is not mutated', () => {
  const schema = { type: 'object', additionalProperties: false };
  expect(inlineRefs(schema)).toEqual({
    type: 'object',
    additionalProperties: false,
    properties: {},
  });
  expect(schema).toEqual({ type: 'object', additionalProperties: false });
});

test('definitions that each name the next twice stop growing at a bound, and the rest is left open', () => {
  // d0 -> d1 twice -> d2 twice ...: 2^40 objects if inlined in full.
  const $defs: Record<string, unknown> = { d40: { type: 'string' } };
  for (let i = 0; i < 40; i++) {
    $defs[`d${i}`] = {
      type: 'object',
      properties: { a: { $ref: `#/$defs/d${i + 1}` }, b: { $ref: `#/$defs/d${i + 1}` } },
    };
  }
  const inlined = inlineRefs({ type: 'object', properties: { x: { $ref: '#/$defs/d0' } }, $defs });
  let nodes = 0;
  const count = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    nodes += 1;
    for (const value of Object.values(node)) count(value);
  };
  count(inlined);
  expect(nodes).toBeLessThan(3 * MAX_INLINED_NODES);
  expect(JSON.stringify(inlined)).toContain('{}');
});
