/**
 * Streamable HTTP as a channel, without a session (MCP 2026-07-28): each request is one POST,
 * answered by a JSON body or by an event stream scoped to it, with the mirrored fields and the
 * version header in its envelope (built by http-request.ts) and the retry policy around it.
 * Closing the stream (the deadline aborting) is the request's cancellation.
 */
import type { Deadline } from '../../core/deadline.ts';
import { StreamTruncatedError } from '../../core/errors.ts';
import type {
  Incoming,
  JsonRpcMessage,
  JsonRpcRequest,
  JsonRpcResponse,
} from '../../core/jsonrpc.ts';
import type { RetryPolicy } from '../../core/types.ts';
import { discard, type HttpResponse, readText, statusError } from '../transport/http.ts';
import { refusedResponse, withRetry } from '../transport/retry.ts';
import { readMessages } from '../transport/sse.ts';
import type { Channel, ChannelCall, ChannelEvents, Listening } from './channel.ts';
import { Subscription } from './http-listen.ts';
import { ACCEPT_RESPONSE, type HttpTarget, httpRequest } from './http-request.ts';
import { readJsonReply } from './json-reply.ts';
import { notModified, withIfNoneMatch } from './revalidate.ts';

export interface StreamableHttpConfig extends HttpTarget {
  maxResponseBytes: number;
  maxEventSize: number;
  retry: RetryPolicy;
  reconnectAttempts: number;
}

export class StreamableHttpChannel implements Channel {
  readonly label: string;
  readonly mirrors = true;
  readonly #config: StreamableHttpConfig;

  constructor(config: StreamableHttpConfig) {
    this.label = config.url;
    this.#config = config;
  }

  request<T>(
    message: JsonRpcRequest,
    call: ChannelCall,
    read: (response: JsonRpcResponse) => T | Promise<T>,
  ): Promise<T> {
    const { deadline } = call;
    return withRetry(
      () =>
        this.post(
          message,
          call.version,
          withIfNoneMatch(call.mirror, call.revalidation),
          deadline.signal,
        ).then(
          (response) =>
            notModified(response, message, call.revalidation) ??
            this.readResponse(response, message, deadline, call.tool, call.onMessage),
        ),
      this.#config.retry,
      { idempotent: call.idempotent, deadline, refused: refusedResponse },
    ).then(read);
  }

  async send(message: JsonRpcMessage, signal: AbortSignal): Promise<void> {
    const response = await this.post(message, undefined, undefined, signal);
    if (response.status >= 200 && response.status < 300) return discard(response);
    const text = await readText(response, this.#config.maxResponseBytes, this.label, signal);
    throw statusError(response, text, {
      url: this.label,
      method: 'method' in message ? message.method : 'response',
    });
  }

  listen(
    build: () => { message: JsonRpcRequest; version: string },
    events: ChannelEvents,
  ): Listening {
    const config = this.#config;
    const subscription = new Subscription(
      {
        url: config.url,
        maxResponseBytes: config.maxResponseBytes,
        maxEventSize: config.maxEventSize,
        reconnectAttempts: config.reconnectAttempts,
        minDelayMs: config.retry.minDelayMs,
        maxDelayMs: config.retry.maxDelayMs,
        open: async (signal) => {
          const { message, version } = build();
          const mirror = { 'mcp-method': message.method };
          return { request: message, response: await this.post(message, version, mirror, signal) };
        },
      },
      events,
    );
    subscription.start();
    return subscription;
  }

  attach(): void {
    // Without a session nothing reaches the client outside a request's answer (listen apart).
  }

  async close(): Promise<void> {
    // The dispatcher is the client's: it closes it.
  }

  /** POSTs one message with the envelope's headers. */
  post(
    message: JsonRpcMessage,
    version: string | undefined,
    mirror: Record<string, string> | undefined,
    signal: AbortSignal,
  ): Promise<HttpResponse> {
    return httpRequest(this.#config, {
      method: 'POST',
      accept: ACCEPT_RESPONSE,
      version,
      envelope: mirror,
      body: message,
      signal,
    });
  }

  /** The response to `message`, from a JSON body or from the request's event stream. */
  readResponse(
    response: HttpResponse,
    message: JsonRpcRequest,
    deadline: Deadline,
    tool: string | undefined,
    onMessage: (incoming: Incoming) => void,
  ): Promise<JsonRpcResponse> {
    const config = this.#config;
    if (response.status === 200 && response.mediaType === 'text/event-stream') {
      return this.#fromStream(response, message, deadline.signal, tool, onMessage);
    }
    return readJsonReply(response, message, {
      url: config.url,
      tool,
      maxResponseBytes: config.maxResponseBytes,
      signal: deadline.signal,
      route: (incoming) => {
        if (incoming.kind !== 'response') onMessage(incoming);
      },
    });
  }

  async #fromStream(
    response: HttpResponse,
    message: JsonRpcRequest,
    signal: AbortSignal,
    tool: string | undefined,
    onMessage: (incoming: Incoming) => void,
  ): Promise<JsonRpcResponse> {
    const config = this.#config;
    for await (const incoming of readMessages(response.body, {
      url: config.url,
      maxEventSize: config.maxEventSize,
      signal,
      position: { lastEventId: undefined, retryMs: undefined },
    })) {
      if (incoming.kind === 'response' && incoming.message.id === message.id)
        return incoming.message;
      if (incoming.kind !== 'response') onMessage(incoming);
    }
    // This revision has no resumption: a stream that ends without the answer has lost it.
    throw new StreamTruncatedError({ url: config.url, method: message.method, tool });
  }
}
