/**
 * The server's input schema, made ready for a model provider without changing what it means:
 * local `$ref`s are replaced by what they point to (most providers resolve none), recursion is cut
 * at a bound, and `anyOf` / `oneOf` / `allOf` stay exactly as the server wrote them. The original
 * schema is still what arguments are checked against (validate.ts), so a bound that loosens a
 * deeply recursive branch never lets a bad call through.
 */
import type { JsonObject, JsonSchema } from '@toolwire/client';

/**
 * How many times a recursive `$ref` is expanded inside itself before the rest is left open (`{}`).
 * A ref that is not recursive is always expanded in full.
 */
export const DEFAULT_MAX_RECURSION = 2;

// Keywords whose value is one schema, an array of schemas, or a map of name -> schema. Everything
// else (enum, const, default, examples, ...) is data and is copied untouched, even if it holds a
// key named "$ref".
const SCHEMA_KEYWORDS = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);
const SCHEMA_ARRAY_KEYWORDS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items']);
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
/** Where definitions live; dropped from the result once everything is inlined. */
const DEFINITION_KEYWORDS = new Set(['$defs', 'definitions']);
/** Keywords that only describe: a `$ref` with nothing else beside them merges cleanly. */
const ANNOTATION_KEYWORDS = new Set([
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
]);

/**
 * How many schema objects inlining may make in all. Definitions that each name the next one twice
 * double at every step (a "billion laughs" schema): past this, further refs are left open, as a
 * recursive one is, and the server's own schema still checks the arguments.
 */
export const MAX_INLINED_NODES = 20_000;

/** The schema with every local `$ref` inlined; `$defs` / `definitions` are no longer needed. */
export function inlineRefs(
  schema: JsonSchema,
  maxRecursion: number = DEFAULT_MAX_RECURSION,
): JsonSchema {
  let budget = MAX_INLINED_NODES;
  const walk = (node: unknown, refs: readonly string[]): unknown => {
    if (!isObject(node)) return node;
    budget -= 1;
    const ref = node['$ref'];
    if (typeof ref === 'string') return expand(node, ref, refs);
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (DEFINITION_KEYWORDS.has(key) && node === schema) continue;
      out[key] = walkKeyword(key, value, refs);
    }
    return out;
  };

  const walkKeyword = (key: string, value: unknown, refs: readonly string[]): unknown => {
    if (SCHEMA_ARRAY_KEYWORDS.has(key) && Array.isArray(value)) {
      return value.map((item) => walk(item, refs));
    }
    if (SCHEMA_KEYWORDS.has(key)) return walk(value, refs);
    if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, walk(sub, refs)]),
      );
    }
    return value;
  };

  const expand = (node: JsonObject, ref: string, refs: readonly string[]): unknown => {
    const { $ref: _ref, ...siblings } = node;
    const target = ref.startsWith('#') ? resolvePointer(schema, ref.slice(1)) : undefined;
    // A remote ref is never fetched, and a ref past the bound (a recursive type) is left open:
    // the model may send anything there, the check against the original schema still applies.
    const depth = refs.filter((seen) => seen === ref).length;
    const resolved =
      target === undefined || depth > maxRecursion || budget <= 0
        ? {}
        : walk(target, [...refs, ref]);
    const rest = walk(siblings, refs) as JsonObject;
    if (Object.keys(rest).length === 0) return resolved;
    if (!isObject(resolved)) return { allOf: [resolved], ...rest };
    // Beside a $ref, annotations (a description of this use) merge; constraints must both hold.
    const onlyAnnotations = Object.keys(rest).every((key) => ANNOTATION_KEYWORDS.has(key));
    return onlyAnnotations ? { ...resolved, ...rest } : { allOf: [resolved], ...rest };
  };

  const result = walk(schema, []) as JsonObject;
  // OpenAI and others insist on `properties` for an object schema, even an empty one.
  if (
    result['type'] === 'object' &&
    result['properties'] === undefined &&
    result['anyOf'] === undefined &&
    result['oneOf'] === undefined &&
    result['allOf'] === undefined
  ) {
    result['properties'] = {};
  }
  return result;
}

/** A JSON Pointer (RFC 6901, URI-fragment form) into `root`, or undefined when it leads nowhere. */
function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = decodePointerToken(raw);
    if (token === undefined) return undefined;
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

function decodePointerToken(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
  } catch {
    return undefined; // a malformed %-escape: the ref leads nowhere
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
