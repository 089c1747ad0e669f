import { afterEach, describe, expect, it, vi } from 'vitest';
import { MalformedMessageError, OutputValidationError } from '../core/errors.ts';
import type { CallToolResult, JsonSchema } from '../core/types.ts';
import { checkStructuredContent, toCallToolResult } from './results.ts';

const context = { method: 'tools/call', tool: 'add', url: 'http://localhost/mcp' };
const text = [{ type: 'text' as const, text: '3' }];

function result(structuredContent: unknown, isError = false): CallToolResult {
  return { content: text, isError, structuredContent };
}

/** What checkStructuredContent threw, or undefined when it passed. */
function check(value: CallToolResult, schema: JsonSchema | undefined): unknown {
  try {
    checkStructuredContent(value, schema, context);
    return undefined;
  } catch (error) {
    return error;
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('toCallToolResult', () => {
  it('defaults isError to false and keeps a literal true', () => {
    expect(toCallToolResult({ content: text }, context).isError).toBe(false);
    expect(toCallToolResult({ content: text, isError: 'yes' }, context).isError).toBe(false);
    expect(toCallToolResult({ content: text, isError: true }, context).isError).toBe(true);
  });

  it('turns missing content into an empty list', () => {
    expect(toCallToolResult({}, context).content).toEqual([]);
  });

  it('keeps fields it does not know', () => {
    const raw = { content: text, structuredContent: { sum: 3 }, _meta: { a: 1 }, future: 'x' };
    expect(toCallToolResult(raw, context)).toEqual({ ...raw, isError: false });
  });

  it.each([
    ['a string', 'hello'],
    ['an object', { type: 'text', text: 'x' }],
    ['a list with an untyped block', [{ type: 'text', text: 'a' }, { text: 'b' }]],
    ['a list with a non-object', ['text']],
  ])('rejects content that is %s with MalformedMessageError', (_label, content) => {
    const error = (() => {
      try {
        return toCallToolResult({ content }, context);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(MalformedMessageError);
    expect(error).toMatchObject({ code: 'MALFORMED_MESSAGE', tool: 'add' });
  });
});

describe('checkStructuredContent', () => {
  const sumSchema: JsonSchema = {
    type: 'object',
    properties: { sum: { type: 'number' } },
    required: ['sum'],
  };

  it('passes structuredContent that matches the schema', () => {
    expect(check(result({ sum: 3 }), sumSchema)).toBeUndefined();
  });

  it('passes anything when the tool declares no outputSchema', () => {
    expect(check(result('whatever'), undefined)).toBeUndefined();
  });

  it('rejects a mismatch with OutputValidationError holding the problems and the raw result', () => {
    const bad = result({ sum: 'three' });
    const error = check(bad, sumSchema) as OutputValidationError;
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(error.code).toBe('OUTPUT_VALIDATION');
    expect(error.problems).toEqual(['/sum must be number']);
    expect(error.result).toBe(bad);
    expect(error.tool).toBe('add');
  });

  it('names the root as / when the whole value is wrong', () => {
    const error = check(result('three'), sumSchema) as OutputValidationError;
    expect(error.problems).toEqual(['/ must be object']);
  });

  it('does not validate a result that is an error', () => {
    expect(check(result({ sum: 'three' }, true), sumSchema)).toBeUndefined();
  });

  it('rejects a result without structuredContent when the tool declares a schema', () => {
    const error = check({ content: text, isError: false }, sumSchema);
    expect(error).toBeInstanceOf(OutputValidationError);
  });

  it('reads a schema without $schema as JSON Schema 2020-12', () => {
    const pair: JsonSchema = {
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'number' }],
    };
    expect(check(result(['a', 1]), pair)).toBeUndefined();
    expect(check(result(['a', 'b']), pair)).toBeInstanceOf(OutputValidationError);
  });

  it('honours a draft-07 $schema (array items as a tuple)', () => {
    const pair: JsonSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }, { type: 'number' }],
    };
    expect(check(result(['a', 1]), pair)).toBeUndefined();
    expect(check(result(['a', 'b']), pair)).toBeInstanceOf(OutputValidationError);
  });

  it('never fetches a remote $ref and reports the schema as unusable', () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const remote: JsonSchema = { $ref: 'https://example.com/x.json' };
    const error = check(result({ sum: 3 }), remote) as OutputValidationError;
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(error.problems[0]).toMatch(/^outputSchema cannot be used/);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('compiles a schema object once: later changes to it do not change the validation', () => {
    const schema: JsonSchema = { type: 'object', properties: { n: { type: 'number' } } };
    expect(check(result({ n: 1 }), schema)).toBeUndefined();
    (schema['properties'] as { n: { type: string } }).n.type = 'string';
    expect(check(result({ n: 1 }), schema)).toBeUndefined();
    expect(check(result({ n: 'one' }), schema)).toBeInstanceOf(OutputValidationError);
  });

  it('accepts two different schemas that share an $id', () => {
    const first: JsonSchema = { $id: 'urn:out', type: 'object', required: ['a'] };
    const second: JsonSchema = { $id: 'urn:out', type: 'object', required: ['b'] };
    expect(check(result({ a: 1 }), first)).toBeUndefined();
    expect(check(result({ b: 1 }), second)).toBeUndefined();
    expect(check(result({ a: 1 }), second)).toBeInstanceOf(OutputValidationError);
  });
});
