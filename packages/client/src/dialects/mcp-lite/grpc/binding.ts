/**
 * MCP-lite's gRPC binding (seed 000 §5): service `mcplite.MCPLite` over HTTP/2 (h2c for grpc://,
 * TLS for grpcs://) with Connect's gRPC transport. `GetTools` lists, `CallTool` calls, and
 * `CallToolStream` calls when the caller follows partials (UNIMPLEMENTED there means a server
 * without it: unary from then on). The call's deadline goes on the wire as `grpc-timeout` and its
 * signal cancels the HTTP/2 stream, which the server sees. The application's headers and
 * credentials travel as metadata, asked of the client's request gate (`headers` as a function,
 * `auth`) for each call as the HTTP binding's requests are. Loaded only for grpc URLs
 * (`McpLiteDialect.overGrpc`).
 */
import type { MessageInitShape, JsonObject as StructJson } from '@bufbuild/protobuf';
import {
  type CallOptions,
  type Client,
  Code,
  ConnectError,
  createClient,
} from '@connectrpc/connect';
import { createGrpcTransport, Http2SessionManager } from '@connectrpc/connect-node';
import type { Deadline } from '../../../core/deadline.ts';
import { type ErrorContext, JsonRpcError, StreamTruncatedError } from '../../../core/errors.ts';
import { isObject, type JsonObject } from '../../../core/jsonrpc.ts';
import { gateOf } from '../../../wire/transport/gate-interceptor.ts';
import {
  callHeaders,
  type HttpRequest,
  MAX_GATE_ROUNDS,
  type Refusal,
  type RequestGate,
} from '../../../wire/transport/http.ts';
import type {
  BindingListing,
  LiteBinding,
  LiteCall,
  LiteResponse,
  McpLiteConfig,
} from '../binding.ts';
import { toolsOf } from '../listing.ts';
import { MCPLite, type ToolRequestSchema, type ToolResponse } from './gen/mcplite/mcplite_pb.ts';
import { fromGrpcError, isUnimplemented } from './status.ts';
import { httpBaseOf } from './url.ts';
import { resultOf, toolJson } from './wire.ts';

/** Headers the binding and HTTP/2 own: the application's headers never replace them. */
const RESERVED = new Set([
  'connection',
  'content-length',
  'content-type',
  'host',
  'keep-alive',
  'proxy-connection',
  'te',
  'transfer-encoding',
  'upgrade',
]);

type Where = ErrorContext & { url: string };
type Metadata = Record<string, string>;
/** The statuses a gate reads as a refusal, as the HTTP status of the same meaning. */
const REFUSALS: Partial<Record<Code, number>> = {
  [Code.Unauthenticated]: 401,
  [Code.PermissionDenied]: 403,
};
type Request = MessageInitShape<typeof ToolRequestSchema>;

export class GrpcBinding implements LiteBinding {
  readonly url: string;
  readonly #config: McpLiteConfig;
  readonly #sessions: Http2SessionManager;
  readonly #client: Client<typeof MCPLite>;
  /** The `headers` option's and `auth`'s gate, when there is one. */
  readonly #gate: RequestGate | undefined;
  /** Cleared once the server answered CallToolStream with UNIMPLEMENTED. */
  #streams = true;

  constructor(config: McpLiteConfig) {
    this.url = config.url;
    this.#config = config;
    const baseUrl = httpBaseOf(config.url);
    // One HTTP/2 connection, owned here so that close() can end it.
    this.#sessions = new Http2SessionManager(baseUrl);
    this.#client = createClient(
      MCPLite,
      createGrpcTransport({
        baseUrl,
        sessionManager: this.#sessions,
        readMaxBytes: config.maxResponseBytes,
      }),
    );
    this.#gate = gateOf(config.dispatcher);
  }

  async list(deadline: Deadline): Promise<BindingListing> {
    const where = { url: this.url, method: 'tools/list' };
    const timeoutMs = deadline.remainingMs();
    using cancel = cancellation(deadline.signal);
    try {
      const answer = await this.#authorized(deadline, (metadata) =>
        this.#client.getTools({}, this.#options(cancel.signal, timeoutMs, metadata)),
      );
      return { kind: 'tools', url: this.url, ...toolsOf(answer.tools.map(toolJson))! };
    } catch (error) {
      // No MCPLite service here (or no gRPC at all): not this dialect.
      if (isUnimplemented(error) && !deadline.aborted) {
        return { kind: 'misses', misses: [`GetTools ${this.url}: ${(error as Error).message}`] };
      }
      throw this.#failure(error, where, deadline, timeoutMs);
    }
  }

  async call(call: LiteCall): Promise<LiteResponse> {
    const where = { url: this.url, method: 'tools/call', tool: call.tool };
    const args = call.params['arguments'];
    const meta = call.params['_meta'];
    const request: Request = {
      name: String(call.params['name']),
      arguments: isObject(args) ? structOf(args) : {},
    };
    if (isObject(meta)) request.meta = structOf(meta);
    if (call.stream && this.#streams) {
      const answer = await this.#streamed(request, call, where);
      if (answer !== 'unimplemented') return answer;
      this.#streams = false;
    }
    return this.#unary(request, call, where);
  }

  async close(): Promise<void> {
    this.#sessions.abort();
  }

  async #unary(request: Request, call: LiteCall, where: Where): Promise<LiteResponse> {
    const { deadline } = call;
    const timeoutMs = deadline.remainingMs();
    using cancel = cancellation(deadline.signal);
    let response: ToolResponse;
    try {
      response = await this.#authorized(deadline, (metadata) =>
        this.#client.callTool(request, this.#options(cancel.signal, timeoutMs, metadata)),
      );
    } catch (error) {
      return this.#responseOf(this.#failure(error, where, deadline, timeoutMs));
    }
    return { kind: 'result', url: this.url, result: resultOf(response) };
  }

  /**
   * A streamed call: messages without `meta` are partials, `heartbeat` ones signs of life, the
   * one with `meta` the last; a stream that ends without it is truncated. `unimplemented` when
   * the server has no streaming RPC (and so ran nothing).
   */
  async #streamed(
    request: Request,
    call: LiteCall,
    where: Where,
  ): Promise<LiteResponse | 'unimplemented'> {
    const { deadline, partials } = call;
    // Signs of life push the caller's timeout back, up to its cap: the wire deadline is the cap.
    const timeoutMs = this.#config.resetTimeoutOnProgress
      ? deadline.capRemainingMs()
      : deadline.remainingMs();
    using cancel = cancellation(deadline.signal);
    let final: ToolResponse | undefined;
    let received = false;
    try {
      await this.#authorized(
        deadline,
        async (metadata) => {
          const options = this.#options(cancel.signal, timeoutMs, metadata);
          // Read to the end, past the final message, so that the status in the trailers is seen.
          for await (const message of this.#client.callToolStream(request, options)) {
            received = true;
            if (final) continue;
            if (message.meta) final = message;
            else if (message.heartbeat) partials.life();
            else partials.add(message.result ?? {});
          }
        },
        () => !received,
      );
    } catch (error) {
      if (!received && isUnimplemented(error) && !deadline.aborted) return 'unimplemented';
      return this.#responseOf(this.#failure(error, where, deadline, timeoutMs));
    }
    if (!final) throw new StreamTruncatedError(where);
    return { kind: 'result', url: this.url, result: partials.result(resultOf(final)) };
  }

  #options(signal: AbortSignal, timeoutMs: number, metadata: Metadata): CallOptions {
    return { signal, timeoutMs: Math.max(1, Math.ceil(timeoutMs)), headers: metadata };
  }

  /**
   * Runs one RPC with its metadata: the `headers` option, the call's own headers, and what the
   * client's gate adds for each request (the `headers` function, `auth`'s credentials). A server
   * that answers UNAUTHENTICATED or PERMISSION_DENIED (before anything else, for a stream) is put
   * to the gate as a 401 or 403: fresh credentials send the RPC again, which is not a retry.
   */
  async #authorized<T>(
    deadline: Deadline,
    rpc: (metadata: Metadata) => Promise<T>,
    mayResend: () => boolean = () => true,
  ): Promise<T> {
    const request: HttpRequest = {
      url: this.url,
      method: 'POST',
      headers: { ...this.#config.headers, ...callHeaders.getStore() },
      signal: deadline.signal,
    };
    for (let round = 1; ; round++) {
      const extra = this.#gate ? await this.#gate.headers(request) : {};
      try {
        return await rpc(metadataOf({ ...request.headers, ...extra }));
      } catch (error) {
        const refusal = refusalOf(error);
        if (!this.#gate || !refusal || round === MAX_GATE_ROUNDS || !mayResend()) throw error;
        if (deadline.aborted || !(await this.#gate.refused(request, refusal))) throw error;
      }
    }
  }

  #failure(error: unknown, where: Where, deadline: Deadline, timeoutMs: number) {
    return fromGrpcError(error, {
      where,
      deadline,
      timeoutMs,
      maxResponseBytes: this.#config.maxResponseBytes,
    });
  }

  /** A protocol error is the server's answer; anything else is thrown for the retry policy. */
  #responseOf(error: Error): LiteResponse {
    if (error instanceof JsonRpcError) return { kind: 'error', error };
    throw error;
  }
}

/**
 * The call's signal as Connect should see it: aborted with an AbortError, which Connect resets
 * the HTTP/2 stream with as CANCEL, the code a server reads as the client cancelling (the call's
 * own reason, a toolwire error, would go as INTERNAL_ERROR). The toolwire error is still what the
 * caller gets (`fromGrpcError`).
 */
function cancellation(signal: AbortSignal): Disposable & { signal: AbortSignal } {
  const controller = new AbortController();
  const cancel = () => controller.abort(new DOMException('the call was cancelled', 'AbortError'));
  if (signal.aborted) cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  return {
    signal: controller.signal,
    [Symbol.dispose]: () => signal.removeEventListener('abort', cancel),
  };
}

/** A status the server sent that says the credentials were refused, as the gate reads one. */
function refusalOf(error: unknown): Refusal | undefined {
  if (!(error instanceof ConnectError) || !error.isWireError) return undefined;
  const status = REFUSALS[error.code];
  if (status === undefined) return undefined;
  return { status, header: (name) => error.metadata.get(name) ?? undefined };
}

/** The application's headers as gRPC metadata: lower-case names, none the binding owns. */
function metadataOf(headers: Record<string, string>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (RESERVED.has(key) || key.startsWith('grpc-') || key.startsWith(':')) continue;
    metadata[key] = value;
  }
  return metadata;
}

/** A value as a Struct holds it: what JSON would carry (undefined fields gone, dates as strings). */
function structOf(value: JsonObject): StructJson {
  return JSON.parse(JSON.stringify(value)) as StructJson;
}
