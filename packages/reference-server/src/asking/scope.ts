/** What a signed requestState is bound to: the tool and a digest of its arguments. */
import { createHash } from 'node:crypto';
import { isObject, type JsonObject } from '../jsonrpc.ts';

/** JSON with object keys sorted, so that a retry re-serialised in another order still matches. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The scope a tool's requestState is signed for: a state is refused on another tool, and on the
 * same tool called with other arguments (the spec's "identifier for the originating request").
 */
export function callScope(tool: string, args: JsonObject): string {
  const digest = createHash('sha256').update(canonical(args)).digest('base64url').slice(0, 16);
  return `tools/call:${tool}:${digest}`;
}
