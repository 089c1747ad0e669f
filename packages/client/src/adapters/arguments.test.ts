import { expect, test } from 'vitest';
import { argumentProblems } from './arguments.ts';

const schema = {
  type: 'object',
  properties: {
    shape: { anyOf: [{ $ref: '#/$defs/circle' }, { $ref: '#/$defs/square' }] },
    unit: { enum: ['cm', 'in'] },
    count: { type: 'integer' },
  },
  required: ['shape'],
  additionalProperties: false,
  $defs: {
    circle: { type: 'object', properties: { radius: { type: 'number' } }, required: ['radius'] },
    square: { type: 'object', properties: { side: { type: 'number' } }, required: ['side'] },
  },
};

test('arguments that fit have no problems, whichever anyOf branch they take', () => {
  expect(argumentProblems(schema, { shape: { radius: 1 } })).toEqual([]);
  expect(argumentProblems(schema, { shape: { side: 2 }, unit: 'cm' })).toEqual([]);
});

test('every problem is named by its path, one line each', () => {
  const problems = argumentProblems(schema, {
    shape: { diameter: 1 },
    unit: 'mm',
    count: 'x',
    extra: true,
  });
  expect(problems).toEqual(
    expect.arrayContaining([
      '/shape is missing "radius"',
      '/shape is missing "side"',
      '/unit must be one of ["cm","in"]',
      '/count must be integer',
      '(the arguments) has an unexpected property "extra"',
    ]),
  );
  expect(argumentProblems(schema, {})).toEqual(['(the arguments) is missing "shape"']);
});

test('at most ten problems are named', () => {
  const properties = Object.fromEntries(
    Array.from({ length: 20 }, (_, index) => [`p${index}`, { type: 'number' }]),
  );
  const args = Object.fromEntries(Object.keys(properties).map((key) => [key, 'x']));
  expect(argumentProblems({ type: 'object', properties }, args)).toHaveLength(10);
});

test('the draft a schema names is the draft it is read in', () => {
  // In draft-07, `items` as an array is a tuple; 2020-12 calls that prefixItems.
  const tuple = { type: 'array', items: [{ type: 'string' }, { type: 'number' }] };
  const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', ...tuple };
  expect(argumentProblems(draft07, ['a', 'b'])).toEqual(['/1 must be number']);
});

test('a schema ajv cannot compile checks nothing, and says so; two schemas may share an $id', () => {
  const remote = { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } };
  expect(argumentProblems(remote, { a: 1 })).toBeUndefined();
  expect(argumentProblems(remote, { a: 1 })).toBeUndefined();
  const one = { $id: 'urn:same', type: 'object', required: ['x'] };
  const two = { $id: 'urn:same', type: 'object', required: ['y'] };
  expect(argumentProblems(one, {})).toEqual(['(the arguments) is missing "x"']);
  expect(argumentProblems(two, {})).toEqual(['(the arguments) is missing "y"']);
});
