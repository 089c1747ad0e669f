/**
 * JSON-RPC 2.0 message shapes as MCP uses them, plus builders for outgoing messages.
 * Incoming bodies are `unknown` until `classifyMessage` has checked their shape.
 */

/** A JSON-RPC request id. MCP forbids `null` ids on requests. */
export type RequestId = string | number;

/** A JSON object with unknown values; the common shape of params and results. */
export type JsonObject = Record<string, unknown>;

/** A request from the peer: it expects exactly one response with the same id. */
export interface RpcRequest {
  readonly kind: 'request';
  readonly id: RequestId;
  readonly method: string;
  readonly params: unknown;
}

/** A notification from the peer: no id, never answered. */
export interface RpcNotification {
  readonly kind: 'notification';
  readonly method: string;
  readonly params: unknown;
}

/** A response from the peer to a request this server sent (e.g. the client answering a ping). */
export interface RpcResponse {
  readonly kind: 'response';
  readonly id: RequestId;
  readonly result: unknown;
  readonly error: unknown;
}

/** Any message a client may POST. */
export type RpcIncoming = RpcRequest | RpcNotification | RpcResponse;

/** Error codes this server uses: the JSON-RPC standard ones plus MCP's resource-not-found. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Transport-level refusals (missing session header, unacceptable media type, ...). */
  ServerError: -32000,
  /** The SDK convention for "this session id is not known (any more)". */
  SessionNotFound: -32001,
  ResourceNotFound: -32002,
} as const;

/** Thrown by method handlers; turned into a JSON-RPC error response for the request. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    this.data = data;
  }
}

/** True for plain JSON objects (not arrays, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Checks the shape of one parsed message; `undefined` means it is not valid JSON-RPC 2.0. */
export function classifyMessage(value: unknown): RpcIncoming | undefined {
  if (!isObject(value) || value['jsonrpc'] !== '2.0') return undefined;
  const { id, method, params } = value;
  if (typeof method === 'string') {
    if (!('id' in value)) return { kind: 'notification', method, params };
    return isRequestId(id) ? { kind: 'request', id, method, params } : undefined;
  }
  // Exactly one of result/error must be present.
  if (!isRequestId(id) || 'result' in value === 'error' in value) return undefined;
  return { kind: 'response', id, result: value['result'], error: value['error'] };
}

/** A stable map key for a request id: keeps `1` and `"1"` apart. */
export function idKey(id: RequestId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

/** Builds a success response. */
export function resultMessage(id: RequestId, result: unknown): JsonObject {
  return { jsonrpc: '2.0', id, result };
}

/** Builds an error response; `id` is null when the failing message could not be identified. */
export function errorMessage(
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonObject {
  const error: JsonObject = { code, message };
  if (data !== undefined) error['data'] = data;
  return { jsonrpc: '2.0', id, error };
}

/** Builds a notification. */
export function notificationMessage(method: string, params?: JsonObject): JsonObject {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

/** Builds a request sent from this server to the client. */
export function requestMessage(id: RequestId, method: string, params?: JsonObject): JsonObject {
  return params === undefined
    ? { jsonrpc: '2.0', id, method }
    : { jsonrpc: '2.0', id, method, params };
}
