import { describe, expect, test } from 'vitest';
import { SLIM_DESCRIPTION_BOUND, slimDescription, slimSchema } from './slim.ts';

describe('slimSchema', () => {
  test('drops $comment, $schema and $id, at the root and inside properties', () => {
    const slim = slimSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $comment: 'for maintainers',
      type: 'object',
      properties: { a: { type: 'string', $comment: 'x', $id: 'urn:a' } },
    });
    expect(slim).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });

  test('a property named like a dropped keyword is kept: properties are data, not keywords', () => {
    const slim = slimSchema({ type: 'object', properties: { $comment: { type: 'string' } } });
    expect(slim['properties']).toEqual({ $comment: { type: 'string' } });
  });

  test('keeps one example of many', () => {
    const slim = slimSchema({ type: 'object', examples: [{ a: 1 }, { a: 2 }, { a: 3 }] });
    expect(slim['examples']).toEqual([{ a: 1 }]);
  });

  test('drops a title that repeats the tool or property name, keeps one that says more', () => {
    const slim = slimSchema(
      {
        type: 'object',
        title: 'Get Weather',
        properties: {
          file_path: { type: 'string', title: 'File Path' },
          city: { type: 'string', title: 'City to look up' },
        },
      },
      'get_weather',
    );
    expect(slim).toEqual({
      type: 'object',
      properties: {
        file_path: { type: 'string' },
        city: { type: 'string', title: 'City to look up' },
      },
    });
  });

  test('drops a default its description already states, keeps one it does not', () => {
    const slim = slimSchema({
      type: 'object',
      properties: {
        n: { type: 'number', default: 10, description: 'How many. Defaults to 10.' },
        lang: { type: 'string', default: 'en', description: 'Language (default: "en")' },
        m: { type: 'number', default: 100, description: 'How many. Defaults to 10.' },
      },
    });
    const properties = slim['properties'] as Record<string, Record<string, unknown>>;
    expect(properties['n']).not.toHaveProperty('default');
    expect(properties['lang']).not.toHaveProperty('default');
    expect(properties['m']?.['default']).toBe(100);
  });

  test('merges a one-branch anyOf / allOf into its parent, leaves real choices alone', () => {
    const slim = slimSchema({
      type: 'object',
      properties: {
        one: { description: 'd', anyOf: [{ type: 'string' }] },
        all: { allOf: [{ type: 'number', minimum: 0 }] },
        two: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        clash: { type: 'string', allOf: [{ type: 'number' }] },
      },
    });
    expect(slim['properties']).toEqual({
      one: { description: 'd', type: 'string' },
      all: { type: 'number', minimum: 0 },
      two: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      clash: { type: 'string', allOf: [{ type: 'number' }] },
    });
  });

  test('data is never walked into: an enum or default holding $comment stays whole', () => {
    const slim = slimSchema({
      type: 'object',
      default: { $comment: 'kept' },
      enum: [{ $schema: 1 }],
    });
    expect(slim).toEqual({ type: 'object', default: { $comment: 'kept' }, enum: [{ $schema: 1 }] });
  });

  test('a property named __proto__ stays an own property', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
    const properties = slimSchema(schema)['properties'] as object;
    expect(Object.hasOwn(properties, '__proto__')).toBe(true);
  });

  test('leaves the server schema untouched', () => {
    const schema = { type: 'object', $comment: 'x', properties: { a: { title: 'A' } } };
    const copy = structuredClone(schema);
    slimSchema(schema);
    expect(schema).toEqual(copy);
  });
});

describe('slimDescription', () => {
  test('a description within the bound is unchanged', () => {
    expect(slimDescription('Adds two numbers.')).toBe('Adds two numbers.');
  });

  test('a long one is cut at the last sentence before the bound', () => {
    const text = `${'First sentence here. '.repeat(60)}End`;
    const cut = slimDescription(text);
    expect(cut.length).toBeLessThanOrEqual(SLIM_DESCRIPTION_BOUND);
    expect(cut.endsWith('here.')).toBe(true);
  });

  test('without a sentence end, it is cut at a word and marked', () => {
    const cut = slimDescription('word '.repeat(300), 100);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut).toMatch(/word…$/);
  });
});
