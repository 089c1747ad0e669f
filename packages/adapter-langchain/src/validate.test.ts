import { expect, test } from 'vitest';
import { inlineRefs } from './schema.ts';
import { argumentCheck } from './validate.ts';

const schema = {
  type: 'object',
  properties: {
    shape: { anyOf: [{ $ref: '#/$defs/circle' }, { $ref: '#/$defs/square' }] },
    unit: { enum: ['cm', 'in'] },
  },
  required: ['shape'],
  additionalProperties: false,
  $defs: {
    circle: { type: 'object', properties: { radius: { type: 'number' } }, required: ['radius'] },
    square: { type: 'object', properties: { side: { type: 'number' } }, required: ['side'] },
  },
};

test('arguments matching either anyOf branch pass', () => {
  const check = argumentCheck(schema, inlineRefs(schema));
  expect(check({ shape: { radius: 1 } })).toEqual([]);
  expect(check({ shape: { side: 2 }, unit: 'cm' })).toEqual([]);
});

test('problems are named by path, one line each', () => {
  const check = argumentCheck(schema, inlineRefs(schema));
  const problems = check({ shape: { diameter: 1 }, unit: 'mm', extra: true });
  expect(problems).toContain('/shape is missing "radius"');
  expect(problems).toContain('/shape is missing "side"');
  expect(problems).toContain('/unit must be one of ["cm","in"]');
  expect(problems).toContain('(the arguments) has an unexpected property "extra"');
});

test('a schema ajv cannot compile (a remote $ref) is checked through its inlined form', () => {
  const remote = {
    type: 'object',
    properties: { a: { $ref: 'https://example.com/a.json' }, n: { type: 'integer' } },
    required: ['n'],
  };
  const check = argumentCheck(remote, inlineRefs(remote));
  expect(check({ a: 'anything', n: 1 })).toEqual([]);
  expect(check({ a: 'anything' })).toEqual(['(the arguments) is missing "n"']);
});

test('a draft-07 schema is read as draft-07', () => {
  const draft07 = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { tags: { type: 'array', items: [{ type: 'string' }], additionalItems: false } },
  };
  const check = argumentCheck(draft07, inlineRefs(draft07));
  expect(check({ tags: ['a'] })).toEqual([]);
  expect(check({ tags: ['a', 'b'] })).not.toEqual([]);
});
