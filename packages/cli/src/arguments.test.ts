import type { Tool } from '@toolwire/client';
import { describe, expect, it } from 'vitest';
import { toolArguments } from './arguments.ts';
import { UsageError } from './exit-codes.ts';

const tool: Tool = {
  name: 'book',
  inputSchema: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      nights: { type: 'integer' },
      price: { type: 'number' },
      breakfast: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      rooms: { type: 'array', items: { type: 'integer' } },
      guest: { type: 'object' },
      size: { type: 'string', enum: ['single', 'double'] },
      note: { type: ['string', 'null'] },
      code: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
    },
    required: ['city'],
  },
};

const usage = (words: string[], json?: string) => {
  try {
    toolArguments(tool, words, json);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
};

describe('tool arguments from the command line', () => {
  it('types each value as the input schema says', () => {
    expect(
      toolArguments(tool, [
        'city=007',
        'nights=3',
        'price=99.5',
        'breakfast=yes',
        'tags=quiet',
        'tags=view',
        'rooms=[1,2]',
        'guest={"name":"Ada"}',
        'size=double',
        'note=null',
        'code=42',
      ]),
    ).toEqual({
      city: '007',
      nights: 3,
      price: 99.5,
      breakfast: true,
      tags: ['quiet', 'view'],
      rooms: [1, 2],
      guest: { name: 'Ada' },
      size: 'double',
      note: null,
      code: 42,
    });
  });

  it('takes a JSON object (a word or --args) under the words, and key:=JSON as given', () => {
    expect(
      toolArguments(
        tool,
        ['{"city":"Oslo","nights":1}', 'nights=2', 'price:="12"'],
        '{"breakfast":false}',
      ),
    ).toEqual({ breakfast: false, city: 'Oslo', nights: 2, price: '12' });
  });

  it('reads arguments a schema does not describe as JSON when they are, else as text', () => {
    const open: Tool = { name: 'open', inputSchema: { type: 'object' } };
    expect(toolArguments(open, ['a=1', 'b=true', 'c=hello', 'd=[1]', 'e='])).toEqual({
      a: 1,
      b: true,
      c: 'hello',
      d: [1],
      e: '',
    });
  });

  it('says what is wrong before anything is sent', () => {
    expect(usage([])).toBe('book needs city=<string>');
    expect(usage(['city=x', 'nights=two'])).toBe('nights must be integer, got "two"');
    expect(usage(['city=x', 'nights=1.5'])).toBe('nights must be integer, got "1.5"');
    expect(usage(['city=x', 'breakfast=maybe'])).toBe('breakfast must be boolean, got "maybe"');
    expect(usage(['city=x', 'guest=[1]'])).toBe(
      `guest must be a JSON object, like guest='{"a":1}'`,
    );
    expect(usage(['city=x', 'size=triple'])).toBe('size must be one of single, double');
    expect(usage(['city'])).toBe('expected key=value (or key:=JSON), got "city"');
    expect(usage(['city=x', 'rooms=[1'])).toMatch(/^rooms is not valid JSON/);
    expect(usage([], '[1]')).toBe('--args must be a JSON object');
    const strict: Tool = {
      name: 'strict',
      inputSchema: { type: 'object', properties: { a: {} }, additionalProperties: false },
    };
    expect(() => toolArguments(strict, ['b=1'])).toThrow(
      'strict takes no argument "b" (it takes a)',
    );
  });
});
