/**
 * The `_meta` keys MCP 2026-07-28 reserves for its envelope, and a result stripped of that
 * envelope: what callers get is the protocol's result, not the wire's.
 */
import { isObject, type JsonObject } from '../../jsonrpc.ts';

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
  const { resultType: _kind, ...rest } = result;
  const meta = rest['_meta'];
  if (isObject(meta) && META.serverInfo in meta) {
    const { [META.serverInfo]: _server, ...own } = meta;
    if (Object.keys(own).length > 0) rest['_meta'] = own;
    else delete rest['_meta'];
  }
  return rest;
}

/** A listen notification as the client's events take it: without the subscription's tag. */
export function withoutSubscriptionId(params: JsonObject | undefined): JsonObject | undefined {
  const meta = params?.['_meta'];
  if (!params || !isObject(meta)) return params;
  const { 'io.modelcontextprotocol/subscriptionId': _id, ...rest } = meta;
  return { ...params, _meta: rest };
}
