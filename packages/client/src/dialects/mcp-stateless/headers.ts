/**
 * The HTTP headers MCP 2026-07-28 mirrors from the body: `Mcp-Method`, `Mcp-Name`, and
 * `Mcp-Param-{Name}` for tool parameters marked `x-mcp-header`. Every value must equal the body,
 * or the server rejects the request; a value HTTP cannot carry as is travels base64-encoded.
 */
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';
import type { Tool } from '../../core/types.ts';

/** A tool parameter mirrored into a header: its header name and where it sits in the arguments. */
export interface HeaderParam {
  name: string;
  path: readonly string[];
}

/** RFC 9110 `token`: the characters a header field name may contain. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);
/** Visible ASCII and space; anything else (and padding) goes base64. */
const PLAIN = /^[\x20-\x7e]*$/;
const SENTINEL = /^=\?base64\?.*\?=$/s;

/**
 * The parameters of a tool's input schema marked `x-mcp-header`, or the reason the marking is
 * invalid (which makes the whole tool invalid).
 */
export function headerParams(schema: JsonObject): HeaderParam[] | string {
  let params = analysed.get(schema);
  if (params === undefined) {
    params = analyse(schema);
    analysed.set(schema, params);
  }
  return params;
}

/** Calls happen far more often than tool lists change: each schema is walked once. */
const analysed = new WeakMap<JsonObject, HeaderParam[] | string>();

function analyse(schema: JsonObject): HeaderParam[] | string {
  const found: HeaderParam[] = [];
  const problem = visit(schema, [], found);
  if (problem) return problem;
  const names = new Set<string>();
  for (const param of found) {
    const key = param.name.toLowerCase();
    if (names.has(key)) return `x-mcp-header "${param.name}" is used twice`;
    names.add(key);
  }
  return found;
}

/**
 * How deep a schema may nest before the walk gives up on it (the tool is then dropped, as for an
 * invalid marking): a server's schema must not be able to exhaust the stack.
 */
const MAX_DEPTH = 64;

/** Walks every subschema; a marking is valid only at the end of a chain of `properties` keys. */
function visit(node: unknown, chain: string[], found: HeaderParam[]): string | undefined {
  if (chain.length > MAX_DEPTH) return `inputSchema nested deeper than ${MAX_DEPTH} levels`;
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) {
      const problem = visit(item, [...chain, String(index)], found);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!isObject(node)) return undefined;
  if ('x-mcp-header' in node) {
    const problem = checkMarking(node, chain);
    if (problem) return problem;
    found.push({ name: node['x-mcp-header'] as string, path: chain.filter((_, i) => i % 2 === 1) });
  }
  for (const [key, child] of Object.entries(node)) {
    const problem = visit(child, [...chain, key], found);
    if (problem) return problem;
  }
  return undefined;
}

function checkMarking(node: JsonObject, chain: string[]): string | undefined {
  const name = node['x-mcp-header'];
  const where = chain.join('/') || '(root)';
  if (typeof name !== 'string' || !TOKEN.test(name))
    return `x-mcp-header at ${where} is not a header token`;
  const reachable =
    chain.length > 0 &&
    chain.length % 2 === 0 &&
    chain.every((key, i) => i % 2 === 1 || key === 'properties');
  if (!reachable)
    return `x-mcp-header "${name}" at ${where} is not reachable through properties alone`;
  if (typeof node['type'] !== 'string' || !HEADER_TYPES.has(node['type'])) {
    return `x-mcp-header "${name}" is on a parameter that is not a string, integer or boolean`;
  }
  return undefined;
}

/** The `Mcp-Param-*` headers for one call of `tool` with `args`; absent or null values send none. */
export function paramHeaders(
  params: readonly HeaderParam[],
  args: JsonObject,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    let value: unknown = args;
    for (const key of param.path) value = isObject(value) ? value[key] : undefined;
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      continue;
    headers[`mcp-param-${param.name.toLowerCase()}`] = encodeHeaderValue(String(value));
  }
  return headers;
}

/** A header value as the spec carries it: plain when HTTP can, `=?base64?…?=` otherwise. */
export function encodeHeaderValue(value: string): string {
  const plain = PLAIN.test(value) && value.trim() === value && !SENTINEL.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The param each method mirrors into `Mcp-Name` (the tasks extension routes by task). */
const NAMED_BY: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** The headers that mirror a request's method and name, and a tool's marked parameters. */
export function mirroredHeaders(
  method: string,
  params: JsonObject | undefined,
  tool: Tool | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-method': method };
  const name = params?.[NAMED_BY[method] ?? ''];
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
  if (method === 'tools/call' && tool) {
    const marked = headerParams(tool.inputSchema);
    const args = params?.['arguments'];
    if (typeof marked !== 'string' && isObject(args))
      Object.assign(headers, paramHeaders(marked, args));
  }
  return headers;
}
