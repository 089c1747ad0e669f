/**
 * A model's arguments checked against the server's own input schema before a call leaves the
 * process, for both adapters: a mistake goes back to the model at once, and the server never
 * sees the bad call. The client's schema compiler does the work (ajv loaded on first use, each
 * schema compiled once and kept while the schema object lives).
 */
import type { ErrorObject } from 'ajv';
import { compile } from '../core/schema.ts';
import type { JsonSchema } from '../core/types.ts';

/** A model that gets everything wrong does not need a hundred lines to learn it. */
const MAX_PROBLEMS = 10;

/** Schemas ajv could not compile: tried once, not at every call. */
const unusable = new WeakSet<JsonSchema>();

/**
 * What is wrong with `args` for the tool's input `schema`, one line per problem (at most ten);
 * empty when they fit. `undefined` when ajv cannot compile the schema (a remote `$ref`, say):
 * nothing was checked, and the server judges.
 */
export function argumentProblems(schema: JsonSchema, args: unknown): string[] | undefined {
  if (unusable.has(schema)) return undefined;
  let validate: ReturnType<typeof compile>;
  try {
    validate = compile(schema);
  } catch {
    unusable.add(schema);
    return undefined;
  }
  if (validate(args)) return [];
  return (validate.errors ?? []).slice(0, MAX_PROBLEMS).map(describe);
}

/** "/items/0/id must be integer", or the missing or unexpected property by name. */
function describe(error: ErrorObject): string {
  const where = error.instancePath || '(the arguments)';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    return `${where} is missing "${String(params['missingProperty'])}"`;
  }
  if (error.keyword === 'additionalProperties') {
    return `${where} has an unexpected property "${String(params['additionalProperty'])}"`;
  }
  if (error.keyword === 'enum') {
    return `${where} must be one of ${JSON.stringify(params['allowedValues'])}`;
  }
  return `${where} ${error.message ?? 'is invalid'}`;
}
