import { isObject, type JsonObject } from './jsonrpc.ts';

/**
 * Checks tool arguments against the small JSON Schema subset the fixture tools declare
 * (object properties, required, additionalProperties:false, primitive types, enum, bounds).
 * Returns a readable problem description, or undefined when the arguments are fine.
 */
export function checkArguments(schema: JsonObject, args: JsonObject): string | undefined {
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  for (const name of required) {
    if (typeof name === 'string' && !Object.hasOwn(args, name)) {
      return `missing required argument "${name}"`;
    }
  }
  for (const [name, value] of Object.entries(args)) {
    const property = properties[name];
    if (!isObject(property)) {
      if (schema['additionalProperties'] === false) return `unexpected argument "${name}"`;
      continue;
    }
    const problem = checkValue(property, value);
    if (problem !== undefined) return `argument "${name}" ${problem}`;
  }
  return undefined;
}

function checkValue(schema: JsonObject, value: unknown): string | undefined {
  const typeProblem = checkType(schema['type'], value);
  if (typeProblem !== undefined) return typeProblem;
  if (Array.isArray(schema['enum']) && !schema['enum'].includes(value)) {
    return `must be one of ${schema['enum'].map((option) => JSON.stringify(option)).join(', ')}`;
  }
  if (typeof value === 'number') {
    if (typeof schema['minimum'] === 'number' && value < schema['minimum']) {
      return `must be at least ${schema['minimum']}`;
    }
    if (typeof schema['maximum'] === 'number' && value > schema['maximum']) {
      return `must be at most ${schema['maximum']}`;
    }
  }
  return undefined;
}

function checkType(type: unknown, value: unknown): string | undefined {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    case 'integer':
      return Number.isSafeInteger(value) ? undefined : 'must be an integer';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'object':
      return isObject(value) ? undefined : 'must be an object';
    default:
      return undefined;
  }
}
