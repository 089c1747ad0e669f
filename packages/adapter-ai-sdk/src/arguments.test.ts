import { expect, test } from 'vitest';
import { argumentProblems } from './arguments.ts';

test('every problem is named, with its path', () => {
  const schema = {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  };
  expect(argumentProblems(schema, { a: 1, b: 2 })).toEqual([]);
  expect(argumentProblems(schema, { a: 'x', c: 3 })).toEqual([
    "/ must have required property 'b'",
    "/ must NOT have additional properties ('c')",
    '/a must be number',
  ]);
});

test('the draft a schema names is the draft it is read in', () => {
  // In draft-07, `items` as an array is a tuple; 2020-12 calls that prefixItems.
  const tuple = { type: 'array', items: [{ type: 'string' }, { type: 'number' }] };
  const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', ...tuple };
  expect(argumentProblems(draft07, ['a', 'b'])).toEqual(['/1 must be number']);
});

test('a schema ajv cannot compile checks nothing, and two schemas may share an $id', () => {
  expect(
    argumentProblems({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, { a: 1 }),
  ).toEqual([]);
  const one = { $id: 'urn:same', type: 'object', required: ['x'] };
  const two = { $id: 'urn:same', type: 'object', required: ['y'] };
  expect(argumentProblems(one, {})).toEqual(["/ must have required property 'x'"]);
  expect(argumentProblems(two, {})).toEqual(["/ must have required property 'y'"]);
});
