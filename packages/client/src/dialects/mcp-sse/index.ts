/**
 * The deprecated HTTP+SSE transport of MCP 2024-11-05, for servers that never moved on: a GET
 * opens one event stream whose first event names the URL to POST to; every message goes there,
 * and every answer comes back on the stream. The stream is the session: when it drops, the next
 * call opens a new one and initializes again.
 */

import type { HttpSessionConfig } from '../../channels/http-session/index.ts';
import type { Deadline } from '../../deadline.ts';
import {
  ClientClosedError,
  ContentTypeError,
  fromJsonRpcError,
  MalformedMessageError,
  StreamTruncatedError,
} from '../../errors.ts';
import {
  type JsonRpcMessage,
  type JsonRpcResponse,
  metaOf,
  notification,
  parseMessages,
  type RequestId,
  request,
} from '../../jsonrpc.ts';
import type { Outcome } from '../../outcome.ts';
import { discard, excerpt, readText, send, statusError } from '../../transport/http.ts';
import { withRetry } from '../../transport/retry.ts';
import { readEvents } from '../../transport/sse.ts';
import { Cancellations } from '../cancellations.ts';
import type {
  Dialect,
  DialectEvents,
  Operation,
  SendContext,
  ServerDescription,
} from '../dialect.ts';
import { describeServer, initializeParams } from '../handshake.ts';
import { Inbound } from '../inbound.ts';
import { CLOSE_GRACE_MS, legacyEra } from '../legacy-era.ts';
import type { StatefulConfig } from '../mcp-stateful/index.ts';
import { Router } from '../router.ts';

/** The legacy handshake's configuration, and where and how to reach the server. */
export type SseConfig = StatefulConfig & HttpSessionConfig;

interface Stream {
  /** Where messages are POSTed, as the server named it. */
  endpoint: string;
  controller: AbortController;
  /** Rejects every waiting call when the stream ends. */
  lost: Promise<never>;
}

export class SseDialect implements Dialect {
  readonly name = 'mcp-sse';
  readonly adapt = legacyEra.adapt;
  readonly screenTools = legacyEra.screenTools;
  readonly freshFor = legacyEra.freshFor;
  server: ServerDescription = {
    protocolVersion: '',
    serverInfo: { name: '', version: '' },
    capabilities: {},
    instructions: undefined,
  };
  readonly #config: SseConfig;
  readonly #events: DialectEvents;
  readonly #router: Router;
  readonly #inbound: Inbound;
  readonly #closed = new AbortController();
  #closing = false;
  readonly #cancellations = new Cancellations();
  #stream: Stream | undefined;
  #opening: Promise<void> | undefined;
  #nextId = 0;

  private constructor(config: SseConfig, events: DialectEvents) {
    this.#config = config;
    this.#events = events;
    this.#inbound = new Inbound(
      (message) => this.#post(message, this.#closed.signal),
      events,
      config,
    );
    this.#router = new Router(events, this.#inbound, config.url);
  }

  static async connect(
    config: SseConfig,
    events: DialectEvents,
    deadline: Deadline,
  ): Promise<SseDialect> {
    const dialect = new SseDialect(config, events);
    await dialect.#open(deadline);
    return dialect;
  }

  async send(operation: Operation, context: SendContext): Promise<Outcome> {
    // The stream was the session; a lost one is replaced, with a new handshake, before the call.
    if (!this.#stream) {
      this.#opening ??= this.#open(context.deadline).finally(() => {
        this.#opening = undefined;
      });
      await this.#opening;
    }
    const id = this.#nextId++;
    const params = context.onProgress
      ? { ...operation.params, _meta: { ...metaOf(operation.params), progressToken: id } }
      : operation.params;
    try {
      const response = await this.#request(
        request(id, operation.method, params),
        context,
        operation.idempotent,
      );
      if ('error' in response) {
        return {
          kind: 'failure',
          error: fromJsonRpcError(response.error, {
            url: this.#config.url,
            method: operation.method,
            tool: operation.tool,
          }),
        };
      }
      return { kind: 'complete', result: response.result };
    } catch (error) {
      // Closing the stream would end the session, not the call: the server must be told. A call
      // ended by close() needs no word: closing the stream ends the session.
      const { aborted, reason } = context.deadline.signal;
      if (aborted && this.#stream && !this.#closing && !(reason instanceof ClientClosedError)) {
        this.#cancellations.track(
          this.#post(
            notification('notifications/cancelled', { requestId: id, reason: 'cancelled' }),
            this.#closed.signal,
          ).catch(() => {}),
        );
      }
      throw error;
    }
  }

  notify(method: string, signal: AbortSignal): Promise<void> {
    return this.#post(notification(method), signal);
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    await this.#cancellations.settle(CLOSE_GRACE_MS);
    this.#closed.abort(new ClientClosedError({ url: this.#config.url }));
    this.#inbound.closeAll();
    this.#stream?.controller.abort();
    this.#stream = undefined;
  }

  /** Opens the stream, learns the endpoint, and initializes. */
  async #open(deadline: Deadline): Promise<void> {
    const config = this.#config;
    const controller = new AbortController();
    this.#closed.signal.addEventListener('abort', () => controller.abort(), { once: true });
    // The GET outlives the call that opened it, so only the race for the endpoint is bounded.
    const response = await send(config.dispatcher, {
      url: config.url,
      method: 'GET',
      headers: { ...config.headers, accept: 'text/event-stream' },
      signal: AbortSignal.any([controller.signal, deadline.signal]),
    });
    if (response.status !== 200 || response.mediaType !== 'text/event-stream') {
      const text = await readText(response, config.maxResponseBytes, config.url, deadline.signal);
      if (response.status === 200)
        throw new ContentTypeError(response.mediaType, {
          url: config.url,
          method: 'GET',
          bodyExcerpt: excerpt(text),
        });
      throw statusError(response, text, { url: config.url, method: 'GET' });
    }
    const events = readEvents(response.body as AsyncIterable<Buffer>, {
      url: config.url,
      maxEventSize: config.maxEventSize,
      signal: controller.signal,
      position: { lastEventId: undefined, retryMs: undefined },
    });
    const first = await events.next();
    if (first.done || first.value.event !== 'endpoint') {
      controller.abort();
      throw new MalformedMessageError('the event stream did not start with an endpoint event', {
        url: config.url,
        method: 'GET',
      });
    }
    const endpoint = new URL(first.value.data.trim(), config.url).href;
    let reject: (error: Error) => void = () => {};
    const lost = new Promise<never>((_, fail) => {
      reject = fail;
    });
    lost.catch(() => {});
    const stream: Stream = { endpoint, controller, lost };
    this.#stream = stream;
    void this.#pump(events, stream, reject);
    const answer = await this.#request(
      request(this.#nextId++, 'initialize', initializeParams(config, config.protocolVersion)),
      { deadline },
      true,
    );
    this.server = describeServer(answer, config.supportedVersions, config.url);
    await this.#post(notification('notifications/initialized'), deadline.signal);
  }

  /** Routes everything the stream carries until it ends; then the session is gone. */
  async #pump(
    events: AsyncGenerator<{ event?: string | undefined; data: string }>,
    stream: Stream,
    lose: (error: Error) => void,
  ): Promise<void> {
    try {
      for await (const event of events) {
        if (event.event !== undefined && event.event !== 'message') continue;
        const messages = parseMessages(event.data);
        if (typeof messages === 'string') {
          this.#events.warning(
            new MalformedMessageError(`${messages} in an SSE event`, { url: this.#config.url }),
          );
          continue;
        }
        for (const incoming of messages) this.#router.dispatch(incoming);
      }
    } catch {
      // A broken connection ends the session like a closed one does.
    }
    if (this.#stream === stream) this.#stream = undefined;
    lose(new StreamTruncatedError({ url: this.#config.url, method: 'GET' }));
  }

  /** POSTs a request and waits for its response on the stream (or, from some servers, in the body). */
  async #request(
    message: JsonRpcMessage & { id: RequestId; method: string },
    context: Pick<SendContext, 'deadline' | 'onProgress'>,
    idempotent: boolean,
  ): Promise<JsonRpcResponse> {
    const stream = this.#stream;
    if (!stream) {
      throw new StreamTruncatedError({
        url: this.#config.url,
        method: message.method,
        retryable: false,
        mayHaveRun: false,
      });
    }
    const { deadline } = context;
    const waiter = this.#router.expect(message.id, context.onProgress);
    const arrived = new Promise<void>((resolve) => {
      waiter.arrived = resolve;
    });
    try {
      await withRetry(() => this.#post(message, deadline.signal), this.#config.retry, {
        idempotent,
        deadline,
      });
      await Promise.race([arrived, stream.lost, abortion(deadline.signal)]);
      return waiter.response!;
    } finally {
      this.#router.forget(waiter);
    }
  }

  /** POSTs one message to the endpoint; the answer to a request arrives on the stream. */
  async #post(message: JsonRpcMessage, signal: AbortSignal): Promise<void> {
    const config = this.#config;
    const stream = this.#stream;
    if (!stream)
      throw new StreamTruncatedError({
        url: config.url,
        method: 'method' in message ? message.method : 'response',
        retryable: false,
        mayHaveRun: false,
      });
    const response = await send(config.dispatcher, {
      url: stream.endpoint,
      method: 'POST',
      headers: {
        ...config.headers,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      body: JSON.stringify(message),
      signal,
    });
    if (response.status >= 200 && response.status < 300) {
      // Some servers answer in the body too; route it like anything from the stream.
      if (response.mediaType === 'application/json') {
        const messages = parseMessages(
          await readText(response, config.maxResponseBytes, config.url, signal),
        );
        if (typeof messages !== 'string')
          for (const incoming of messages) this.#router.dispatch(incoming);
        return;
      }
      return discard(response);
    }
    const text = await readText(response, config.maxResponseBytes, config.url, signal);
    throw statusError(response, text, {
      url: stream.endpoint,
      method: 'method' in message ? message.method : 'response',
    });
  }
}

function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
