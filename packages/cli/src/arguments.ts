/**
 * A tool's arguments from the command line: `key=value` words read against the tool's input
 * schema (numbers, booleans, arrays and objects as the schema types them), `key:=JSON` for a value
 * given as JSON whatever the schema says, and a whole JSON object (a word starting with `{`, or
 * `--args`) under the words. Mistakes the schema can catch before anything is sent (a missing
 * required argument, a number that is not one, a value outside an enum) are UsageErrors.
 */
import type { JsonObject, JsonSchema, Tool } from '@toolwire/client';
import { UsageError } from './exit-codes.ts';
import { visible } from './printable.ts';

type Json = JsonObject[string];

export function toolArguments(tool: Tool, words: readonly string[], json?: string): JsonObject {
  const schema = tool.inputSchema;
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const args: JsonObject = {};
  if (json !== undefined) Object.assign(args, objectFrom(json, '--args'));
  const repeated = new Set<string>();
  for (const word of words) {
    if (word.trimStart().startsWith('{')) {
      Object.assign(args, objectFrom(word, 'the JSON arguments'));
      continue;
    }
    const match = /^([^=:]+)(:?=)([\s\S]*)$/.exec(word);
    if (!match) {
      throw new UsageError(`expected key=value (or key:=JSON), got "${word}"`);
    }
    const [, key = '', operator, raw = ''] = match;
    const property = properties[key];
    if (property === undefined && schema['additionalProperties'] === false) {
      const known = Object.keys(properties);
      throw new UsageError(
        `${visible(tool.name)} takes no argument "${key}"${known.length > 0 ? ` (it takes ${known.join(', ')})` : ''}`,
      );
    }
    const propertySchema = isRecord(property) ? property : {};
    const value = operator === ':=' ? parseJson(raw, key) : fromText(raw, propertySchema, key);
    // key=a key=b builds a list, for an array argument given one item at a time.
    if (repeated.has(key) && Array.isArray(args[key]) && !raw.trimStart().startsWith('[')) {
      (args[key] as Json[]).push(...(Array.isArray(value) ? value : [value]));
    } else args[key] = value;
    repeated.add(key);
    checkEnum(args[key] ?? null, propertySchema, key);
  }
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  const missing = required.filter((key) => typeof key === 'string' && !(key in args));
  if (missing.length > 0) {
    throw new UsageError(
      `${visible(tool.name)} needs ${missing.map((key) => `${key}=${placeholder(properties[key as string])}`).join(' ')}`,
    );
  }
  return args;
}

/** A value typed as the property schema says. */
function fromText(raw: string, schema: JsonSchema, key: string): Json {
  const types = typesOf(schema);
  if (types.size === 0) return jsonOr(raw);
  if (types.has('string') && types.size === 1) return raw;
  // A union with string takes another type only when the text is plainly that type.
  if (types.has('string')) {
    const parsed = jsonOr(raw);
    return parsed !== raw && allows(types, parsed) ? parsed : raw;
  }
  if (types.has('array')) {
    const items = isRecord(schema['items']) ? schema['items'] : {};
    if (raw.trimStart().startsWith('[')) return parseJson(raw, key);
    return [fromText(raw, items, key)];
  }
  if (types.has('object')) {
    const value = parseJson(raw, key);
    if (!isRecord(value))
      throw new UsageError(`${key} must be a JSON object, like ${key}='{"a":1}'`);
    return value;
  }
  if (types.has('boolean') && /^(true|false|yes|no|on|off|1|0)$/i.test(raw)) {
    return /^(true|yes|on|1)$/i.test(raw);
  }
  if (types.has('number') || types.has('integer')) {
    const number = raw.trim() === '' ? Number.NaN : Number(raw);
    if (Number.isFinite(number) && (types.has('number') || Number.isInteger(number))) return number;
  }
  if (types.has('null') && raw === 'null') return null;
  throw new UsageError(`${key} must be ${[...types].join(' or ')}, got "${raw}"`);
}

function checkEnum(value: Json, schema: JsonSchema, key: string): void {
  const choices = Array.isArray(schema['enum'])
    ? schema['enum']
    : Array.isArray(schema['oneOf']) &&
        schema['oneOf'].every((item) => isRecord(item) && 'const' in item)
      ? schema['oneOf'].map((item) => (item as JsonObject)['const'])
      : undefined;
  if (!choices) return;
  const values = Array.isArray(value) && typesOf(schema).has('array') ? value : [value];
  for (const item of values) {
    if (!choices.some((choice) => JSON.stringify(choice) === JSON.stringify(item))) {
      throw new UsageError(
        `${key} must be one of ${choices.map((choice) => String(choice)).join(', ')}`,
      );
    }
  }
}

/** The JSON types a schema allows: its `type`, or those of its anyOf / oneOf members. */
function typesOf(schema: JsonSchema): Set<string> {
  const type = schema['type'];
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((item) => typeof item === 'string'));
  const members = [schema['anyOf'], schema['oneOf']].find(Array.isArray) ?? [];
  const types = new Set<string>();
  for (const member of members) if (isRecord(member)) for (const t of typesOf(member)) types.add(t);
  return types;
}

function allows(types: Set<string>, value: Json): boolean {
  if (value === null) return types.has('null');
  if (Array.isArray(value)) return types.has('array');
  if (typeof value === 'number') {
    return types.has('number') || (types.has('integer') && Number.isInteger(value));
  }
  return types.has(typeof value);
}

function placeholder(schema: unknown): string {
  const types = isRecord(schema) ? [...typesOf(schema)] : [];
  return types.length > 0 ? `<${types.join('|')}>` : '<value>';
}

function objectFrom(text: string, what: string): JsonObject {
  const value = parseJson(text, what);
  if (!isRecord(value)) throw new UsageError(`${what} must be a JSON object`);
  return value;
}

function parseJson(text: string, what: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

function jsonOr(raw: string): Json {
  try {
    return JSON.parse(raw) as Json;
  } catch {
    return raw;
  }
}

function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
