/**
 * JSON-RPC 2.0 envelopes and the cheap structural checks applied to everything a server sends.
 * Deliberately no schema library here: this runs on every message, so it checks only what the
 * client relies on (the kind of message, ids, method names) and leaves results to the layers
 * that use them.
 */

import { noteSize } from './wire-size.ts';

export type RequestId = string | number;
export type JsonObject = Record<string, unknown>;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** A message as the client routes it. */
export type Incoming =
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * Classifies one decoded JSON value. Returns a reason string instead of a message when the value
 * is not a JSON-RPC message, so the caller can build an error that says what was wrong.
 */
export function classify(value: unknown): Incoming | string {
  if (!isObject(value)) return 'not a JSON object';
  if (value['jsonrpc'] !== '2.0') return 'missing "jsonrpc": "2.0"';
  const method = value['method'];
  if (typeof method === 'string') {
    const params = value['params'];
    if (params !== undefined && !isObject(params)) return `"params" of ${method} is not an object`;
    if ('id' in value) {
      if (!isId(value['id'])) return `request ${method} has an invalid id`;
      return { kind: 'request', message: value as unknown as JsonRpcRequest };
    }
    return { kind: 'notification', message: value as unknown as JsonRpcNotification };
  }
  const id = value['id'];
  if ('error' in value) {
    const error = value['error'];
    if (
      !isObject(error) ||
      typeof error['code'] !== 'number' ||
      typeof error['message'] !== 'string'
    ) {
      return 'error response without a numeric code and a message';
    }
    if (id !== null && !isId(id)) return 'error response with an invalid id';
    return { kind: 'response', message: value as unknown as JsonRpcFailure };
  }
  if ('result' in value) {
    if (!isId(id)) return 'response with an invalid id';
    if (!isObject(value['result'])) return 'response whose "result" is not an object';
    return { kind: 'response', message: value as unknown as JsonRpcSuccess };
  }
  return 'neither a request, a notification nor a response';
}

/** Parses a body or SSE data field that holds one message, or (2025-03-26 only) an array of them. */
export function parseMessages(text: string): Incoming[] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'invalid JSON';
  }
  if (!Array.isArray(value)) {
    const incoming = classify(value);
    if (typeof incoming === 'string') return incoming;
    noteSize(incoming, text);
    return [incoming];
  }
  if (value.length === 0) return 'an empty batch';
  const messages: Incoming[] = [];
  for (const item of value) {
    const incoming = classify(item);
    if (typeof incoming === 'string') return incoming;
    messages.push(incoming);
  }
  noteSize(messages, text);
  return messages;
}

/** The `_meta` of a request's params, or an empty object. */
export function metaOf(params: JsonObject | undefined): JsonObject {
  const meta = params?.['_meta'];
  return isObject(meta) ? meta : {};
}

export function request(id: RequestId, method: string, params?: JsonObject): JsonRpcRequest {
  return params === undefined
    ? { jsonrpc: '2.0', id, method }
    : { jsonrpc: '2.0', id, method, params };
}

export function notification(method: string, params?: JsonObject): JsonRpcNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

export function success(id: RequestId, result: JsonObject): JsonRpcSuccess {
  return { jsonrpc: '2.0', id, result };
}

export function failure(id: RequestId, error: JsonRpcErrorObject): JsonRpcFailure {
  return { jsonrpc: '2.0', id, error };
}
