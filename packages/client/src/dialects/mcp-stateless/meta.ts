/**
 * The `_meta` keys MCP 2026-07-28 reserves for its envelope, and a result stripped of that
 * envelope: what callers get is the protocol's result, not the wire's.
 */
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';
import { carrySize } from '../../core/wire-size.ts';

export const META = {
  version: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  capabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/**
 * A complete result without `resultType` and the server-info `_meta` entry, which describe the
 * exchange, not the result. Every other `_meta` key (the tool's own) stays.
 */
export function protocolResult(result: JsonObject): JsonObject {
  const meta = result['_meta'];
  const withServer = isObject(meta) && META.serverInfo in meta;
  // Nothing to take off, as often: the result as it came (a copy costs more than the call's
  // own bookkeeping on a local server).
  if (!withServer && !('resultType' in result)) return result;
  const rest = without(result, 'resultType');
  carrySize(result, rest);
  if (withServer) {
    const own = without(meta, META.serverInfo);
    if (Object.keys(own).length > 0) rest['_meta'] = own;
    else delete rest['_meta'];
  }
  return rest;
}

/** A copy of `object` without `key` (a loop: rest destructuring takes V8's slow path). */
function without(object: JsonObject, key: string): JsonObject {
  const copy: JsonObject = {};
  for (const name of Object.keys(object)) if (name !== key) copy[name] = object[name]!;
  return copy;
}

/** A listen notification as the client's events take it: without the subscription's tag. */
export function withoutSubscriptionId(params: JsonObject | undefined): JsonObject | undefined {
  const meta = params?.['_meta'];
  if (!params || !isObject(meta)) return params;
  const { 'io.modelcontextprotocol/subscriptionId': _id, ...rest } = meta;
  return { ...params, _meta: rest };
}
