import type { JsonObject } from '../../jsonrpc.ts';
import type { LiteRedeem } from '../../types.ts';

/** The three RPCs of the seed's `MCPLite` service. */
export type GrpcRpc = 'GetTools' | 'CallTool' | 'CallToolStream';

/** The gRPC status names a fault can answer with. */
export type GrpcStatusName =
  | 'CANCELLED'
  | 'UNKNOWN'
  | 'INVALID_ARGUMENT'
  | 'DEADLINE_EXCEEDED'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'PERMISSION_DENIED'
  | 'RESOURCE_EXHAUSTED'
  | 'FAILED_PRECONDITION'
  | 'ABORTED'
  | 'OUT_OF_RANGE'
  | 'UNIMPLEMENTED'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  | 'DATA_LOSS'
  | 'UNAUTHENTICATED';

/** Options for {@link startGrpcReferenceServer}. Every field is optional. */
export interface GrpcReferenceServerOptions {
  /** TCP port to listen on; 0 (the default) picks a free port. */
  port?: number;
  /** Interface to bind; defaults to `127.0.0.1`, loopback only. */
  host?: string;
  /** Serve TLS (grpcs://) with this PEM key and certificate; without it, cleartext HTTP/2. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /**
   * Offer `CallToolStream`; default true. Off, the server answers it UNIMPLEMENTED, as a server
   * with the unary RPCs only would.
   */
  streaming?: boolean;
}

/** The status {@link GrpcFaults.failNext} answers with instead of running the call. */
export interface GrpcFailure {
  code: GrpcStatusName;
  /** `grpc-message`; defaults to the status's name. */
  message?: string;
  /** Only calls of this RPC fail. */
  rpc?: GrpcRpc;
  /** Sent as `grpc-retry-pushback-ms`: how long the client should wait. */
  pushbackMs?: number;
  /** Attached as a `google.rpc.ErrorInfo` detail. */
  errorInfo?: { reason: string; domain: string; metadata?: Record<string, string> };
}

/** Switchable misbehaviour of the gRPC binding. */
export interface GrpcFaults {
  /** Answers the next `count` RPCs (of `failure.rpc`, when given) with a status, unprocessed. */
  failNext(count: number, failure: GrpcFailure): void;
  /** The next `CallToolStream` ends, with status OK, just before its final message. */
  cutStreamBeforeMeta(): void;
  /** The next answer's `meta.response_type` is `value` (default 99), which the enum lacks. */
  unknownResponseType(value?: number): void;
  /** Every later call waits `ms` before its tool runs, a slow tool; a cancelled call stops. 0 stops. */
  delay(ms: number): void;
  /** Clears every pending fault and the delay. */
  reset(): void;
}

/** One RPC as the server received it, for assertions about what a client sent. */
export interface GrpcCall {
  rpc: GrpcRpc;
  /** The tool a call named. */
  tool?: string;
  arguments?: JsonObject;
  /** The request's `meta`, when it carried one. */
  meta?: JsonObject;
  /** Request metadata, lower-cased names. */
  headers: Record<string, string>;
  /** The deadline the call carried (`grpc-timeout`), in milliseconds. */
  timeoutMs: number | undefined;
  /**
   * How it ended: `OK`, the status the server answered with, or `CANCELLED` /
   * `DEADLINE_EXCEEDED` when the client cancelled or the deadline passed while it ran. Undefined
   * while it runs.
   */
  status: string | undefined;
}

/** A running gRPC reference server. */
export interface GrpcReferenceServer {
  /** `grpc://127.0.0.1:PORT`, or `grpcs://127.0.0.1:PORT` with TLS. */
  url: string;
  faults: GrpcFaults;
  /** Every RPC, in arrival order. */
  calls: GrpcCall[];
  /** Every redeem, in order. */
  liteRedeems: LiteRedeem[];
  /** The HTTP/2 connections open now: a client that closed leaves none. */
  sessions(): number;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}
