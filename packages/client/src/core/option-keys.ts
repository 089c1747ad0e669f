/**
 * Unknown keys in an options object: a usage TypeError that names the key and the closest known
 * one, so a typo (`timeoutMS`) fails loudly instead of doing nothing. What keys an object takes is
 * declared as a shape, next to its TypeScript interface (`satisfies OptionKeys<T>` makes a key
 * missing from the shape a compile error).
 */
import { usageError } from './call-boundary.ts';

/**
 * What one key takes: `true` for a value whose keys are not option names (a leaf, a function, a
 * store, or the user's data: `headers`, `_meta`, `env`); a nested shape, checked when the value
 * is a plain object; or a function that picks the shape for a value that is one of several kinds.
 */
export type KeyShape = true | OptionShape | ((value: object) => OptionShape | undefined);

export interface OptionShape {
  readonly [key: string]: KeyShape;
}

/** A shape with exactly the keys of `T`: one left out, or one too many, does not compile. */
export type OptionKeys<T> = { readonly [K in keyof T]-?: KeyShape };

/**
 * Throws a usage TypeError for the first key of `value` its shape does not name, nested objects
 * included. `path` prefixes the names in the message (`retry.`). Anything not a plain object is
 * left to the checks of its type.
 */
export function checkKeys(value: unknown, shape: OptionShape, path = ''): void {
  if (!isPlainObject(value)) return;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (!Object.hasOwn(shape, key)) throw unknownKey(key, Object.keys(shape), path);
    const inner = shape[key]!;
    if (inner === true) continue;
    const nested = (value as Record<string, unknown>)[key];
    if (!isPlainObject(nested)) continue;
    const chosen = typeof inner === 'function' ? inner(nested) : inner;
    if (chosen) checkKeys(nested, chosen, `${path}${key}.`);
  }
}

/** A literal or `Object.create(null)`: never a class instance (a store, a dispatcher, a URL). */
function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function unknownKey(key: string, known: readonly string[], path: string): TypeError {
  const near = closest(key, known);
  const hint = near
    ? `; did you mean \`${path}${near}\`?`
    : `; the options here are ${known.map((name) => `\`${path}${name}\``).join(', ')}`;
  return usageError(`unknown option \`${path}${key}\`${hint}`);
}

/**
 * The known key nearest `key` (Damerau-Levenshtein, case ignored), when it is near enough to be a
 * typo of it: within a third of its length, at least one edit. The first declared wins a tie.
 */
export function closest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(key.length / 3)) + 1;
  for (const name of known) {
    const d = distance(lower, name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`. */
function distance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      }
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
