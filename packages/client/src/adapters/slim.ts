/**
 * A tool's definition with what a model does not need taken out (`slim: true` in either adapter):
 * every token of a definition is paid on every turn, for every tool. Only what the model is shown
 * changes; arguments are still checked against the server's full schema.
 */
import type { JsonObject } from '../core/jsonrpc.ts';
import type { JsonSchema } from '../core/types.ts';

/** A tool description longer than this is cut at a sentence (or word) before it. */
export const SLIM_DESCRIPTION_BOUND = 1024;
/** The same for a property's own description: a model reads many of them. */
const SLIM_PROPERTY_DESCRIPTION_BOUND = 256;

/** Notes for schema authors and the dialect marker: no model reads them. */
const DROPPED = new Set(['$comment', '$schema', '$id']);
/** Keywords whose value is one schema (or, for `items`, possibly an array of schemas). */
const ONE_SCHEMA = new Set([
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
const SCHEMA_ARRAYS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
]);

/** `description` cut to `bound` characters: at the last sentence end before it, else a word, with `…`. */
export function slimDescription(text: string, bound = SLIM_DESCRIPTION_BOUND): string {
  if (text.length <= bound) return text;
  const head = text.slice(0, bound - 1);
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('.\n'));
  // A sentence cut keeps the meaning whole, unless it would leave too little of the text.
  if (sentence > bound / 2) return head.slice(0, sentence + 1);
  const word = head.lastIndexOf(' ');
  return `${(word > bound / 2 ? head.slice(0, word) : head).trimEnd()}…`;
}

/**
 * `schema` without `$comment` / `$schema` / `$id`, with at most one example, without titles that
 * repeat the tool's or property's name, without a `default` its description already states, with
 * a one-branch `anyOf` / `oneOf` / `allOf` merged into its parent, and long property descriptions
 * cut. Data (`enum`, `const`, `default`, examples) is never walked into.
 */
export function slimSchema(schema: JsonSchema, name = ''): JsonSchema {
  return slimNode(schema, name, SLIM_DESCRIPTION_BOUND) as JsonSchema;
}

function slimNode(node: unknown, name: string, bound: number): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key) || value === undefined) continue;
    if (key === 'title' && typeof value === 'string' && sameWords(value, name)) continue;
    if (key === 'examples' && Array.isArray(value)) {
      if (value.length > 0) out[key] = value.slice(0, 1);
    } else if (key === 'description' && typeof value === 'string') {
      out[key] = slimDescription(value, bound);
    } else if (SCHEMA_MAPS.has(key) && isObject(value)) {
      const map: JsonObject = {};
      for (const [child, schema] of Object.entries(value)) {
        // Own properties only: a server may name a property `__proto__`.
        Object.defineProperty(map, child, {
          value: slimNode(schema, child, SLIM_PROPERTY_DESCRIPTION_BOUND),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      out[key] = map;
    } else if (SCHEMA_ARRAYS.has(key) && Array.isArray(value)) {
      out[key] = value.map((branch) => slimNode(branch, '', SLIM_PROPERTY_DESCRIPTION_BOUND));
    } else if (ONE_SCHEMA.has(key)) {
      out[key] = Array.isArray(value)
        ? value.map((branch) => slimNode(branch, '', SLIM_PROPERTY_DESCRIPTION_BOUND))
        : slimNode(value, '', SLIM_PROPERTY_DESCRIPTION_BOUND);
    } else {
      out[key] = value;
    }
  }
  if ('default' in out && statesDefault(out['description'], out['default'])) delete out['default'];
  return flattenSingleBranch(out);
}

/** `{ anyOf: [X] }` means X: merged into its parent when no keyword of X is already there. */
function flattenSingleBranch(schema: JsonObject): JsonObject {
  let current = schema;
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    const branches = current[keyword];
    if (!Array.isArray(branches) || branches.length !== 1 || !isObject(branches[0])) continue;
    const branch = branches[0];
    const { [keyword]: _, ...rest } = current;
    if (Object.keys(branch).some((key) => key in rest)) continue;
    current = { ...rest, ...branch };
  }
  return current;
}

/** A title that only says the name again: `Query` for `query`, `File Path` for `file_path`. */
function sameWords(title: string, name: string): boolean {
  const words = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return name !== '' && words(title) === words(name);
}

/** Whether the description already says the default: "Defaults to 10.", "(default: \"en\")". */
function statesDefault(description: unknown, value: unknown): boolean {
  if (typeof description !== 'string' || value === undefined) return false;
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  const escaped = shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`default(?:s|s to| is|:)?\\s*["'\`]?${escaped}(?!\\w|\\.\\d)`, 'i').test(
    description,
  );
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
