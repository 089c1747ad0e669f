/**
 * Every code a server answers with, and what the client makes of it: JSON-RPC error codes (the
 * standard ones and MCP's), gRPC statuses (MCP-lite's gRPC binding) and HTTP statuses. Each
 * becomes one error class here, and here it is decided which of them prove that the server
 * refused a request without acting on it (so a call may be sent again, see wire/transport/retry.ts).
 */
import {
  type ErrorContext,
  GrpcStatusError,
  HandleExpiredError,
  HeaderMismatchError,
  JsonRpcError,
  type McpError,
  MissingCapabilityError,
  ResourceNotFoundError,
  TimeoutError,
  UrlElicitationRequiredError,
} from './errors.ts';
import type { JsonRpcErrorObject } from './jsonrpc.ts';
import type { PendingHandle } from './outcome.ts';

/** JSON-RPC error codes: the client sends the first five when it answers a server's request. */
export const RpcCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  /** Also: a task or MCP-lite promise token the server does not know (`HandleExpiredError`). */
  invalidParams: -32602,
  internalError: -32603,
  /** Before 2026-07-28, `resources/read` of a resource the server does not have. */
  resourceNotFound: -32002,
  /** Pre-release 2026 servers' "unsupported version": trusted only with a version list. */
  draftUnsupportedVersion: -32004,
  /** 2026-07-28: the headers mirrored from the body do not match it. */
  headerMismatch: -32020,
  /** 2026-07-28: the call needs a client capability the client did not declare. */
  missingClientCapability: -32021,
  /** 2026-07-28: the server speaks none of the revisions the request offered. */
  unsupportedVersion: -32022,
  /** 2025-11-25: the user must finish URL elicitations first. */
  urlElicitationRequired: -32042,
} as const;

/** A server's JSON-RPC error as the client's error class of the same meaning. */
export function fromJsonRpcError(
  error: JsonRpcErrorObject,
  context: ErrorContext,
): JsonRpcError | MissingCapabilityError {
  const options = { ...context, data: error.data };
  switch (error.code) {
    case RpcCode.headerMismatch:
      return new HeaderMismatchError(error.message, options);
    case RpcCode.missingClientCapability:
      return MissingCapabilityError.fromServer(error.message, options);
    case RpcCode.urlElicitationRequired:
      return new UrlElicitationRequiredError(error.message, options);
    case RpcCode.resourceNotFound:
    case RpcCode.invalidParams:
      if (context.method === 'resources/read')
        return new ResourceNotFoundError(error.code, error.message, options);
  }
  return new JsonRpcError(error.code, error.message, options);
}

/**
 * An error about deferred work (`tasks/get`, `tasks/result`, MCP-lite's redeem), in every
 * dialect: -32602 means the server does not know the task or token (any more).
 */
export function aboutDeferred(
  error: McpError,
  handle: PendingHandle,
  where: ErrorContext,
): McpError {
  if (error instanceof JsonRpcError && error.rpcCode === RpcCode.invalidParams) {
    return new HandleExpiredError(handle, { ...where, cause: error });
  }
  return error;
}

/** Codes only a 2026-07-28 server sends: whatever else its answer says, it is modern. */
export function modernRpcCode(code: number): boolean {
  return (
    code === RpcCode.headerMismatch ||
    code === RpcCode.missingClientCapability ||
    code === RpcCode.unsupportedVersion
  );
}

/** JSON-RPC errors by which a server refuses a request before acting on it. */
const REFUSED_RPC = new Set<number>([
  RpcCode.parseError,
  RpcCode.invalidRequest,
  RpcCode.methodNotFound,
  RpcCode.invalidParams,
  RpcCode.resourceNotFound,
  RpcCode.headerMismatch,
  RpcCode.missingClientCapability,
  RpcCode.unsupportedVersion,
  RpcCode.urlElicitationRequired,
]);

/** A JSON-RPC error by which the server refused the request without acting on it. */
export function refusedRpcCode(code: number): boolean {
  return REFUSED_RPC.has(code);
}

/** HTTP statuses of a failure that may pass when the request is sent again. */
const TRANSIENT_HTTP = new Set([408, 429, 502, 503, 504]);

/** An HTTP status whose failure may pass if the request is sent again. */
export function transientStatus(status: number): boolean {
  return TRANSIENT_HTTP.has(status);
}

/** An HTTP status by which the server refused the request without acting on it. */
export function refusedStatus(status: number): boolean {
  return (status >= 300 && status < 500) || status === 503;
}

/** The gRPC statuses the client decides on, by their numbers on the wire. */
export const GrpcCode = {
  invalidArgument: 3,
  deadlineExceeded: 4,
  notFound: 5,
  permissionDenied: 7,
  resourceExhausted: 8,
  internal: 13,
  unavailable: 14,
  unauthenticated: 16,
} as const;

/** The HTTP binding's JSON-RPC codes for the statuses MCP-lite's seed maps (§5.5). */
const RPC_OF_GRPC: Partial<Record<number, number>> = {
  [GrpcCode.invalidArgument]: RpcCode.invalidParams,
  [GrpcCode.notFound]: RpcCode.methodNotFound,
  [GrpcCode.internal]: RpcCode.internalError,
};
/** Statuses worth another try: the server is overloaded or pushes back. */
const TRANSIENT_GRPC = new Set<number>([GrpcCode.unavailable, GrpcCode.resourceExhausted]);
/** The HTTP status of the same meaning, for code that checks `error.status`. */
const HTTP_OF_GRPC: Partial<Record<number, number>> = {
  [GrpcCode.unauthenticated]: 401,
  [GrpcCode.permissionDenied]: 403,
};
/**
 * Statuses by which the server refuses a call without running it: push-back (a 429) and
 * credentials refused. An UNAVAILABLE the server sent came after it had the call.
 */
const REFUSED_GRPC = new Set<number>([
  GrpcCode.resourceExhausted,
  GrpcCode.unauthenticated,
  GrpcCode.permissionDenied,
]);

/** What a server's gRPC status carried, as the client read it. */
export interface GrpcStatus {
  code: number;
  message: string;
  /** The status's details: a Struct as JSON, or an ErrorInfo. */
  data: unknown;
  /** `grpc-retry-pushback-ms`, when the server sent it; negative means "do not try again". */
  pushbackMs: number | undefined;
}

/**
 * A server's gRPC status as the class of the same meaning over HTTP: INVALID_ARGUMENT, NOT_FOUND
 * and INTERNAL the JSON-RPC errors of the HTTP binding, DEADLINE_EXCEEDED a `TimeoutError`, the
 * rest a `GrpcStatusError`.
 */
export function fromGrpcStatus(
  status: GrpcStatus,
  context: { where: ErrorContext; timeoutMs: number; cause: unknown },
): McpError {
  const { where, cause } = context;
  const rpcCode = RPC_OF_GRPC[status.code];
  if (rpcCode !== undefined) {
    return fromJsonRpcError({ code: rpcCode, message: status.message, data: status.data }, where);
  }
  if (status.code === GrpcCode.deadlineExceeded) {
    return new TimeoutError(context.timeoutMs, { ...where, cause });
  }
  const pushback = status.pushbackMs;
  return new GrpcStatusError(status.code, status.message, {
    ...where,
    status: HTTP_OF_GRPC[status.code],
    data: status.data,
    cause,
    retryable: TRANSIENT_GRPC.has(status.code) && (pushback ?? 0) >= 0,
    retryAfterMs: pushback !== undefined && pushback >= 0 ? pushback : undefined,
  });
}

/** A gRPC status by which the server refused the call without running it. */
export function refusedGrpcCode(code: number): boolean {
  return REFUSED_GRPC.has(code);
}
