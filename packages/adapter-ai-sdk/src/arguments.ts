/**
 * Arguments checked against the server's own input schema before a call leaves the process, so
 * a model's mistake comes back to it at once and the server never sees the bad call. Each schema
 * is compiled once, on its first use, and dropped with the tool list that held it.
 */
import type { JsonSchema } from '@toolwire/client';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

// Servers' schemas carry keywords and formats ajv does not know: they describe, they do not
// break. Remote $refs are never fetched (no `loadSchema`). All errors, so a model fixes them all.
const ajvOptions = { strict: false, validateFormats: false, allErrors: true } as const;
/** A model that gets everything wrong does not need a hundred lines to learn it. */
const MAX_PROBLEMS = 10;

let draft2020: Ajv2020 | undefined;
let draft07: Ajv | undefined;
const compiled = new WeakMap<JsonSchema, ValidateFunction | 'unusable'>();

/**
 * What is wrong with `args` for `schema`, one line per problem; empty when they fit. A schema
 * ajv cannot compile checks nothing: the server still checks, and the tool stays usable.
 */
export function argumentProblems(schema: JsonSchema, args: unknown): string[] {
  const validate = validatorFor(schema);
  if (validate === 'unusable' || validate(args)) return [];
  return (validate.errors ?? []).slice(0, MAX_PROBLEMS).map(describe);
}

function describe(error: ErrorObject): string {
  const where = error.instancePath || '/';
  const extra = error.params['additionalProperty'];
  const detail = typeof extra === 'string' ? ` ('${extra}')` : '';
  return `${where} ${error.message ?? 'is invalid'}${detail}`;
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

function validatorFor(schema: JsonSchema): ValidateFunction | 'unusable' {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const ajv = ajvFor(typeof schema['$schema'] === 'string' ? schema['$schema'] : '');
  let validate: ValidateFunction | 'unusable';
  try {
    // Without $id: two tools may share one, and ajv would refuse the second.
    const { $id: _id, ...anonymous } = schema;
    validate = ajv.compile(anonymous);
    // The WeakMap is the only cache wanted: ajv's own registry would grow with every listing.
    ajv.removeSchema(anonymous);
  } catch {
    validate = 'unusable';
  }
  compiled.set(schema, validate);
  return validate;
}
