/**
 * The gRPC binding's messages in the HTTP binding's shape, so that one dialect reads both: a
 * `Tool` becomes a tool definition (`@type` from `type`, empty meaning none), a `ToolResponse` a
 * result whose `_meta` holds `response_type` as the HTTP binding spells it. Where the seed's
 * scalars have no presence, zero and empty read as absent; milliseconds become ISO 8601 strings.
 * An enum value this client does not know is kept as its number, which the dialect refuses.
 */
import { isObject, type JsonObject } from '../../../core/jsonrpc.ts';
import type { ResponseMeta, Tool, ToolResponse } from './gen/mcplite/mcplite_pb.ts';

/** `ResponseType` by number, as the HTTP binding names it. */
const RESPONSE_TYPES = ['answer', 'promise', 'elicitation', 'failure', 'request-for-more-resource'];

export function toolJson(tool: Tool): JsonObject {
  const json: JsonObject = { name: tool.name };
  if (tool.type !== '') json['@type'] = tool.type;
  if (tool.description !== '') json['description'] = tool.description;
  json['inputSchema'] = tool.inputSchema ?? { type: 'object' };
  return json;
}

/** A unary answer, or a stream's final message: the result with its `_meta`. */
export function resultOf(response: ToolResponse): JsonObject {
  const result: JsonObject = isObject(response.result) ? { ...response.result } : {};
  if (response.meta) result['_meta'] = metaOf(response.meta);
  return result;
}

function metaOf(meta: ResponseMeta): JsonObject {
  const json: JsonObject = isObject(meta.extra) ? { ...meta.extra } : {};
  json['response_type'] = RESPONSE_TYPES[meta.responseType] ?? meta.responseType;
  if (meta.promiseToken !== '') json['promise_token'] = meta.promiseToken;
  if (meta.timestamp !== 0n) json['timestamp'] = isoOf(meta.timestamp);
  if (meta.processingTimeMs !== 0) json['processing_time_ms'] = meta.processingTimeMs;
  if (meta.estimatedCompletion !== undefined) {
    json['estimated_completion'] = isoOf(meta.estimatedCompletion);
  }
  if (meta.serverVersion !== undefined) json['server_version'] = meta.serverVersion;
  if (isObject(meta.elicitation)) json['elicitation'] = meta.elicitation;
  return json;
}

/** Milliseconds since the epoch as ISO 8601; a value no date can hold stays a number. */
function isoOf(ms: bigint): string | number {
  const date = new Date(Number(ms));
  return Number.isNaN(date.getTime()) ? Number(ms) : date.toISOString();
}
