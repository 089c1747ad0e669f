import type { FormElicitation, FormField } from '@toolwire/client';
import { describe, expect, it } from 'vitest';
import { acceptDefaults, choicesOf, fieldProblem, fieldsWithoutDefaults } from './form.ts';

const field = (extra: Partial<FormField> & Record<string, unknown>): FormField =>
  ({ type: 'string', ...extra }) as FormField;

describe('form fields', () => {
  it('offers the choices of enum (with legacy enumNames) and of titled oneOf / anyOf', () => {
    expect(choicesOf(field({ enum: ['a', 'b'], enumNames: ['Alpha'] }))).toEqual([
      { value: 'a', label: 'Alpha' },
      { value: 'b', label: 'b' },
    ]);
    expect(choicesOf(field({ oneOf: [{ const: 'x', title: 'Ex' }, { const: 'y' }] }))).toEqual([
      { value: 'x', label: 'Ex' },
      { value: 'y', label: 'y' },
    ]);
    expect(choicesOf(field({ anyOf: [{ const: 'r', title: 'Red' }] }))).toEqual([
      { value: 'r', label: 'Red' },
    ]);
    expect(choicesOf(field({}))).toBeUndefined();
  });

  it('checks what is typed against the field: numbers, limits, lengths and formats', () => {
    const problems = [
      [field({ type: 'integer' }), '1.5', 'Enter a whole number.'],
      [field({ type: 'number' }), 'ten', 'Enter a number.'],
      [field({ type: 'number', minimum: 1 }), '0', 'At least 1.'],
      [field({ type: 'integer', maximum: 9 }), '10', 'At most 9.'],
      [field({ minLength: 2 }), 'a', 'At least 2 characters.'],
      [field({ maxLength: 2 }), 'abc', 'At most 2 characters.'],
      [field({ format: 'email' }), 'ada', 'Enter an e-mail address.'],
      [field({ format: 'uri' }), 'not a uri', 'Enter a URI, like https://example.com.'],
      [field({ format: 'date' }), '2026-13-45', 'Enter a date as YYYY-MM-DD.'],
      [
        field({ format: 'date-time' }),
        '2026-07-28',
        'Enter a date and time, like 2026-07-28T09:30:00Z.',
      ],
    ] as const;
    for (const [form, input, problem] of problems)
      expect(fieldProblem(form, input, false)).toBe(problem);
    for (const [form, input] of [
      [field({ type: 'integer', minimum: 0 }), '12'],
      [field({ format: 'email' }), 'ada@example.com'],
      [field({ format: 'date' }), '2026-07-28'],
      [field({ format: 'date-time' }), '2026-07-28T09:30:00Z'],
      [field({ format: 'uri' }), 'https://example.com/a'],
    ] as const) {
      expect(fieldProblem(form, input, true)).toBeUndefined();
    }
  });

  it('lets an empty answer through unless the field must be filled in', () => {
    expect(fieldProblem(field({}), '', true)).toBe('This field is required.');
    expect(fieldProblem(field({}), '', false)).toBeUndefined();
  });

  it('accepts the defaults without a person only when they cover every required field', () => {
    const form = (properties: Record<string, FormField>, required: string[]): FormElicitation => ({
      mode: 'form',
      message: 'm',
      requestedSchema: { type: 'object', properties, required },
    });
    const covered = form({ a: field({ default: 'x' }), b: field({}) }, ['a']);
    expect(acceptDefaults(covered)).toEqual({ action: 'accept', content: {} });
    const uncovered = form({ a: field({ default: 'x' }), b: field({}) }, ['a', 'b']);
    expect(acceptDefaults(uncovered)).toBeUndefined();
    expect(fieldsWithoutDefaults(uncovered)).toEqual(['b']);
  });
});
