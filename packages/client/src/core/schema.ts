/**
 * JSON Schema, as servers write it, checked by ajv: compiled once per schema object and kept
 * while the schema lives. ajv loads on the first schema to check, not at import.
 */
import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema } from './types.ts';

/**
 * What is wrong with `value` under `schema`, or an empty list when it matches. For schemas the
 * application is answerable for (a webtool's `configSchema`); throws the TypeError of
 * `compile()` when the schema is unusable, for the caller to turn into its own error.
 */
export function schemaProblems(schema: JsonSchema, value: unknown): string[] {
  const validate = compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`,
  );
}

// Servers' schemas carry keywords and formats ajv does not know; they describe, they do not
// break. Remote $refs are never fetched: without `loadSchema`, ajv refuses them. All errors, so
// whoever fixes a value (a model, for the adapters' argument checks) can fix them all at once.
const ajvOptions = { strict: false, validateFormats: false, allErrors: true } as const;
let draft2020: Ajv2020 | undefined;
let draft07: Ajv | undefined;
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

// ajv is loaded on the first schema to check, not at import: it is a third of the client's
// start-up, and most tools declare no outputSchema. It is CommonJS, so require() keeps this sync.
const load = createRequire(import.meta.url);

/** Draft-06/07 schemas say so in `$schema`; everything else is read as 2020-12, MCP's default. */
function ajvFor(dialect: string): Ajv | Ajv2020 {
  if (/draft-0[67]/.test(dialect)) {
    // The class is bound to a name first: TypeScript 7 emits `new (x as T).C()` without the
    // parentheses, which calls `x` as the constructor (test/lint/emit-traps.test.ts guards it).
    const { Ajv } = load('ajv') as typeof import('ajv');
    draft07 ??= new Ajv(ajvOptions);
    return draft07;
  }
  const { Ajv2020 } = load('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  draft2020 ??= new Ajv2020(ajvOptions);
  return draft2020;
}

/**
 * One validator per schema object, compiled once. Throws when ajv cannot use the schema (an
 * unknown `$ref`, a malformed keyword) or cannot be loaded; callers turn that into their error.
 */
export function compile(schema: JsonSchema): ValidateFunction {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const ajv = ajvFor(typeof schema['$schema'] === 'string' ? schema['$schema'] : '');
  // A copy without $id: two tools may reuse an $id, and ajv keeps a registry of them.
  const { $id: _id, ...anonymous } = schema;
  const validate = ajv.compile(anonymous);
  // ajv keeps every compiled schema in a registry of its own; the WeakMap is the only cache
  // wanted, so a tool list that changes for days does not grow memory.
  ajv.removeSchema(anonymous);
  compiled.set(schema, validate);
  return validate;
}
