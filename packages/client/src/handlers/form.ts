/**
 * Form elicitation, checked on our side of the wire: the server's form must be the flat,
 * primitive-only schema the spec allows, and the user's answer is given the form's defaults for
 * what it leaves out, then validated against the form before it is sent. ajv does the JSON
 * Schema work; it is loaded the first time a form is answered, not when the client is imported.
 */
import type { ValidateFunction } from 'ajv';
import { isObject, type JsonObject } from '../core/jsonrpc.ts';
import type { FormValue, RequestedSchema } from './types.ts';

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array']);

/** Why `schema` is not a form the spec allows, or undefined when it is one. */
export function formProblem(schema: unknown): string | undefined {
  if (!isObject(schema) || schema['type'] !== 'object')
    return 'requestedSchema is not an object schema';
  const properties = schema['properties'];
  if (!isObject(properties)) return 'requestedSchema has no properties object';
  for (const [name, field] of Object.entries(properties)) {
    if (!isObject(field) || !PRIMITIVE_TYPES.has(String(field['type']))) {
      return `field "${name}" is not a string, number, integer, boolean or enum array`;
    }
    // Arrays are allowed only as multi-select enums of strings.
    if (field['type'] === 'array' && !isObject(field['items'])) {
      return `field "${name}" is an array without an items enum`;
    }
  }
  const required = schema['required'];
  if (
    required !== undefined &&
    !(Array.isArray(required) && required.every((r) => typeof r === 'string'))
  ) {
    return 'requestedSchema.required is not a list of field names';
  }
  return undefined;
}

/**
 * The answer to send for `content`: a copy with the form's defaults filled in, or the list of
 * what is wrong with it.
 */
export async function checkFormAnswer(
  schema: RequestedSchema,
  content: unknown,
): Promise<{ content: Record<string, FormValue> } | { problems: string[] }> {
  if (content !== undefined && !isObject(content))
    return { problems: ['content is not an object'] };
  const filled: JsonObject = structuredClone(content ?? {});
  const validate = await validatorFor(schema);
  if (validate(filled)) return { content: filled as Record<string, FormValue> };
  return {
    problems: (validate.errors ?? []).map(
      (error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`,
    ),
  };
}

let ajv: Promise<import('ajv/dist/2020.js').Ajv2020> | undefined;
/** Forms repeat (a tool asks the same thing each call): keep the last few compiled. */
const compiled = new Map<string, ValidateFunction>();
const KEEP_COMPILED = 32;

async function validatorFor(schema: RequestedSchema): Promise<ValidateFunction> {
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached) return cached;
  ajv ??= import('ajv/dist/2020.js').then(
    ({ Ajv2020 }) =>
      // Defaults fill what the user left out; formats describe (email, uri) and are not enforced,
      // as the server checks what it receives anyway; `enumNames` and the like are not errors.
      new Ajv2020({ strict: false, validateFormats: false, useDefaults: true, allErrors: true }),
  );
  const { $schema: _dialect, $id: _id, ...form } = schema as unknown as JsonObject;
  const instance = await ajv;
  const validate = instance.compile(form);
  // ajv also keeps each compiled schema; this map is the only cache wanted.
  instance.removeSchema(form);
  if (compiled.size >= KEEP_COMPILED) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, validate);
  return validate;
}
