/**
 * Arguments checked against the server's own input schema, `$ref`s and all, before a call is
 * sent: a model's mistake goes back to the model, and the server never sees the bad call. ajv
 * compiles each schema once; the compiled function is kept as long as the schema object is.
 */
import type { JsonSchema } from '@toolwire/client';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** What is wrong with some arguments, one line per problem; empty when they are fine. */
export type ArgumentCheck = (args: unknown) => string[];

/** At most this many problems are reported: enough for a model to fix its call, not a wall. */
const MAX_PROBLEMS = 10;

// Servers' schemas carry keywords and formats ajv does not know; they describe, they do not
// break. Remote $refs are never fetched: without `loadSchema`, ajv refuses them.
const ajvOptions = { strict: false, validateFormats: false, allErrors: true } as const;
let draft2020: Ajv2020 | undefined;
let draft07: Ajv | undefined;
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/**
 * A check for `schema`; when ajv cannot compile it (a remote `$ref`, say), `fallback` (the
 * inlined schema the model sees) is checked instead. When neither compiles, the server judges.
 */
export function argumentCheck(schema: JsonSchema, fallback: JsonSchema): ArgumentCheck {
  let validate: ValidateFunction | null | undefined;
  return (args) => {
    // Compiled on the first call: listing a hundred tools should not compile a hundred schemas.
    if (validate === undefined) validate = compile(schema) ?? compile(fallback) ?? null;
    if (validate === null || validate(args)) return [];
    return (validate.errors ?? []).slice(0, MAX_PROBLEMS).map(describe);
  };
}

/** Draft-06/07 schemas say so in `$schema`; everything else is read as 2020-12, MCP's default. */
function ajvFor(dialect: string): Ajv | Ajv2020 {
  if (/draft-0[67]/.test(dialect)) {
    draft07 ??= new Ajv(ajvOptions);
    return draft07;
  }
  draft2020 ??= new Ajv2020(ajvOptions);
  return draft2020;
}

function compile(schema: JsonSchema): ValidateFunction | undefined {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const ajv = ajvFor(typeof schema['$schema'] === 'string' ? schema['$schema'] : '');
  try {
    // A copy without $id: two tools may reuse an $id, and ajv keeps a registry of them.
    const { $id: _id, ...anonymous } = schema;
    const validate = ajv.compile(anonymous);
    // The WeakMap is the only cache wanted; ajv's own registry would grow with every tool list.
    ajv.removeSchema(anonymous);
    compiled.set(schema, validate);
    return validate;
  } catch {
    return undefined;
  }
}

/** "/items/0/id must be integer", or the missing property by name. */
function describe(error: ErrorObject): string {
  const where = error.instancePath || '(the arguments)';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required')
    return `${where} is missing "${String(params['missingProperty'])}"`;
  if (error.keyword === 'additionalProperties') {
    return `${where} has an unexpected property "${String(params['additionalProperty'])}"`;
  }
  if (error.keyword === 'enum') {
    return `${where} must be one of ${JSON.stringify(params['allowedValues'])}`;
  }
  return `${where} ${error.message ?? 'is invalid'}`;
}
