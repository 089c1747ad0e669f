/**
 * What each operation needs the server to have declared. Most servers in the wild offer tools
 * only: asking them for prompts costs a request and comes back as a raw -32601. A list the
 * server did not declare is empty without a request; any other operation it did not declare is
 * a MissingCapabilityError naming the capability, also without a request.
 */
import { type ErrorContext, MissingCapabilityError } from '../core/errors.ts';
import { isObject, type JsonObject } from '../core/jsonrpc.ts';

/** The capability each method needs, as a path into the server's capabilities. */
const NEEDS: Record<string, readonly string[]> = {
  'resources/list': ['resources'],
  'resources/templates/list': ['resources'],
  'resources/read': ['resources'],
  'resources/subscribe': ['resources', 'subscribe'],
  'resources/unsubscribe': ['resources', 'subscribe'],
  'prompts/list': ['prompts'],
  'prompts/get': ['prompts'],
  'completion/complete': ['completions'],
  'logging/setLevel': ['logging'],
  // Skills (SEP-2640): nothing is asked before the server declares the extension.
  'skills/list': ['extensions', 'io.modelcontextprotocol/skills'],
  'skills/get': ['extensions', 'io.modelcontextprotocol/skills'],
  'resources/directory/read': ['extensions', 'io.modelcontextprotocol/skills', 'directoryRead'],
};

/** The key of each list result: what an empty answer holds. */
const LISTS: Record<string, string> = {
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'prompts/list': 'prompts',
  'skills/list': 'skills',
};

/**
 * The answer to give without a request when the server did not declare what `method` needs:
 * an empty list for a list, a MissingCapabilityError to throw for anything else. Undefined when
 * the method needs nothing undeclared.
 */
export function undeclared(
  method: string,
  capabilities: JsonObject,
  where: ErrorContext,
): { result: JsonObject } | { error: MissingCapabilityError } | undefined {
  const path = NEEDS[method];
  if (!path || declared(capabilities, path)) return undefined;
  const list = LISTS[method];
  if (list) return { result: { [list]: [] } };
  return { error: MissingCapabilityError.ofServer(path.join('.'), where) };
}

/** Declared: an object at the path, or `true` (`resources: { subscribe: true }`). */
function declared(capabilities: JsonObject, path: readonly string[]): boolean {
  const value = path.reduce<unknown>(
    (at, key) => (isObject(at) ? at[key] : undefined),
    capabilities,
  );
  return value === true || isObject(value);
}
