/**
 * What carries MCP-lite: one dialect, two bindings. A binding lists the tools and sends one call
 * once, and hands back what the server said in the HTTP binding's shape (a result with `_meta`
 * inside, or the server's error); the dialect decides what it means (`response.ts`), retries
 * (`wire/transport/retry.ts`), redeems promises and answers elicitations. HTTP (`http/`) and gRPC
 * (`grpc/`, loaded only for grpc:// and grpcs:// URLs) implement it.
 */
import type { Dispatcher } from 'undici';
import type { Deadline } from '../../core/deadline.ts';
import type { McpError } from '../../core/errors.ts';
import type { JsonObject } from '../../core/jsonrpc.ts';
import type { RetryPolicy, Tool } from '../../core/types.ts';
import type { Partials } from './partials.ts';

/** What a binding is built with. */
export interface McpLiteConfig {
  url: string;
  /** HTTP only: the undici dispatcher requests go through. */
  dispatcher: Dispatcher;
  /** Sent with every request: HTTP headers, or gRPC metadata. */
  headers: Record<string, string>;
  /** The largest answer the client reads: a body, or one gRPC message. */
  maxResponseBytes: number;
  /** HTTP only: the largest SSE event. */
  maxEventSize: number;
  retry: RetryPolicy;
  /** Whether heartbeats and partials restart a call's timeout. */
  resetTimeoutOnProgress: boolean;
}

/** A listing, or what each place a listing was looked for answered instead. */
export type BindingListing =
  | { kind: 'tools'; url: string; tools: Tool[]; dropped: string[] }
  | { kind: 'misses'; misses: string[] };

export interface LiteCall {
  /** `tools/call` params: `name`, `arguments`. */
  params: JsonObject;
  /** The tool's name, for errors. */
  tool: string | undefined;
  deadline: Deadline;
  /**
   * The caller follows partials or progress. The gRPC binding then calls the streaming RPC; HTTP
   * takes a stream on every call, as the server chooses.
   */
  stream: boolean;
  /** Where partials and signs of life go, however the answer comes. */
  partials: Partials;
}

/**
 * The server's response to one call: its result (with `_meta`) and the URL that answered, or the
 * protocol error it answered with (a JSON-RPC error, or its gRPC status of the same meaning). Transport failures are thrown, so that the retry policy sees
 * them.
 */
export type LiteResponse =
  | { kind: 'result'; url: string; result: JsonObject }
  | { kind: 'error'; error: McpError };

export interface LiteBinding {
  /** Where the server is, as the application named it. */
  readonly url: string;
  /** Lists the tools once. Throws what says nothing about the dialect (auth, the deadline). */
  list(deadline: Deadline): Promise<BindingListing>;
  /** Sends one call once. */
  call(call: LiteCall): Promise<LiteResponse>;
  /** Releases the connections the binding holds. Never throws. */
  close(): Promise<void>;
}
