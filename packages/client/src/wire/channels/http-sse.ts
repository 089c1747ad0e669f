/**
 * The deprecated HTTP+SSE transport of MCP 2024-11-05 as a channel, for servers that never moved
 * on: a GET opens one event stream whose first event names the URL to POST to; every message goes
 * there, and every answer comes back on the stream, routed by the dialect's router. The stream is
 * the session: when it drops, the next request opens a new one and the dialect's handshake runs
 * again (`keepSession`). Abandoning a request is `notifications/cancelled`.
 */
import type { Deadline } from '../../core/deadline.ts';
import {
  ClientClosedError,
  ContentTypeError,
  MalformedMessageError,
  StreamTruncatedError,
} from '../../core/errors.ts';
import {
  type Incoming,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
  notification,
  parseMessages,
} from '../../core/jsonrpc.ts';
import { discard, excerpt, readText, statusError } from '../transport/http.ts';
import { withRetry } from '../transport/retry.ts';
import { readEvents } from '../transport/sse.ts';
import { Cancellations, CLOSE_GRACE_MS } from './cancellations.ts';
import type { Channel, ChannelCall, ChannelEvents, SessionOpening } from './channel.ts';
import { ACCEPT_RESPONSE, ACCEPT_STREAM, type HttpTarget, httpRequest } from './http-request.ts';
import type { HttpSessionConfig } from './http-session/session.ts';

interface Stream {
  /** Where messages are POSTed, as the server named it. */
  endpoint: HttpTarget;
  controller: AbortController;
  /** Rejects every waiting call when the stream ends. */
  lost: Promise<never>;
}

type Opener = (deadline: Deadline, opening: SessionOpening) => Promise<void>;

export class HttpSseChannel implements Channel {
  readonly label: string;
  readonly mirrors = false;
  readonly #config: HttpSessionConfig;
  #inbound: (incoming: Incoming) => void = () => {};
  #events: Pick<ChannelEvents, 'warning'> = { warning: () => {} };
  #open: Opener | undefined;
  #stream: Stream | undefined;
  #opening: Promise<void> | undefined;
  readonly #closed = new AbortController();
  #closing = false;
  readonly #cancellations = new Cancellations();

  /** The handshake's requests go on the stream being opened, like any other. */
  readonly #handshake: SessionOpening = {
    request: async (message, call) => ({ response: await this.#exchange(message, call) }),
    send: (message, deadline) => this.#post(message, deadline.signal),
    // The revision has no version header, and the stream is open already.
    opened: () => {},
  };

  constructor(config: HttpSessionConfig) {
    this.label = config.url;
    this.#config = config;
  }

  attach(inbound: (incoming: Incoming) => void, events: ChannelEvents): void {
    this.#inbound = inbound;
    this.#events = events;
  }

  keepSession(open: Opener): void {
    this.#open = open;
  }

  /** Opens the stream and runs the handshake on it, once, however many requests wait. */
  async openSession(deadline: Deadline): Promise<void> {
    if (this.#stream && !this.#opening) return;
    this.#opening ??= this.#openStream(deadline).finally(() => {
      this.#opening = undefined;
    });
    await this.#opening;
  }

  request<T>(
    message: JsonRpcRequest,
    call: ChannelCall,
    read: (response: JsonRpcResponse) => T | Promise<T>,
  ): Promise<T> {
    return this.#request(message, call).then(read);
  }

  async #request(message: JsonRpcRequest, call: ChannelCall): Promise<JsonRpcResponse> {
    // The stream was the session; a lost one is replaced, with a new handshake, before the call.
    if (!this.#stream || this.#opening) await this.openSession(call.deadline);
    try {
      return await this.#exchange(message, call);
    } catch (error) {
      // Closing the stream would end the session, not the call: the server must be told. A call
      // ended by close() needs no word: closing the stream ends the session.
      const { aborted, reason } = call.deadline;
      if (aborted && this.#stream && !this.#closing && !(reason instanceof ClientClosedError)) {
        this.#cancellations.track(
          this.#post(
            notification('notifications/cancelled', { requestId: message.id, reason: 'cancelled' }),
            this.#closed.signal,
          ).catch(() => {}),
        );
      }
      throw error;
    }
  }

  send(message: JsonRpcMessage, signal: AbortSignal): Promise<void> {
    return this.#post(message, signal);
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    await this.#cancellations.settle(CLOSE_GRACE_MS);
    this.#closed.abort(new ClientClosedError({ url: this.label }));
    this.#stream?.controller.abort();
    this.#stream = undefined;
  }

  /** Opens the stream, learns the endpoint, and runs the dialect's handshake on it. */
  async #openStream(deadline: Deadline): Promise<void> {
    const open = this.#open;
    if (!open) throw new TypeError('an HTTP+SSE channel needs keepSession() before a session');
    const config = this.#config;
    const controller = new AbortController();
    this.#closed.signal.addEventListener('abort', () => controller.abort(), { once: true });
    // The GET outlives the call that opened it, so only the race for the endpoint is bounded.
    const response = await httpRequest(config, {
      method: 'GET',
      accept: ACCEPT_STREAM,
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
    let endpoint: HttpTarget;
    try {
      endpoint = { ...config, url: endpointOf(first.value.data, config.url) };
    } catch (error) {
      controller.abort();
      throw error;
    }
    let reject: (error: Error) => void = () => {};
    const lost = new Promise<never>((_, fail) => {
      reject = fail;
    });
    lost.catch(() => {});
    const stream: Stream = { endpoint, controller, lost };
    this.#stream = stream;
    void this.#pump(events, stream, reject);
    await open(deadline, this.#handshake);
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
            new MalformedMessageError(`${messages} in an SSE event`, { url: this.label }),
          );
          continue;
        }
        for (const incoming of messages) this.#inbound(incoming);
      }
    } catch {
      // A broken connection ends the session like a closed one does.
    }
    if (this.#stream === stream) this.#stream = undefined;
    lose(new StreamTruncatedError({ url: this.label, method: 'GET' }));
  }

  /** POSTs a request and waits for the router to have its response, from the stream (or a body). */
  async #exchange(message: JsonRpcRequest, call: ChannelCall): Promise<JsonRpcResponse> {
    const stream = this.#stream;
    const { waiter, deadline } = call;
    if (!stream || !waiter) {
      throw new StreamTruncatedError({
        url: this.label,
        method: message.method,
        retryable: false,
        mayHaveRun: false,
      });
    }
    const arrived = new Promise<void>((resolve) => {
      waiter.arrived = resolve;
    });
    try {
      await withRetry(() => this.#post(message, deadline.signal), this.#config.retry, {
        idempotent: call.idempotent,
        deadline,
      });
      await Promise.race([arrived, stream.lost, abortion(deadline.signal)]);
      return waiter.response!;
    } finally {
      waiter.arrived = undefined;
    }
  }

  /** POSTs one message to the endpoint; the answer to a request arrives on the stream. */
  async #post(message: JsonRpcMessage, signal: AbortSignal): Promise<void> {
    const config = this.#config;
    const stream = this.#stream;
    const method = 'method' in message ? message.method : 'response';
    if (!stream)
      throw new StreamTruncatedError({
        url: config.url,
        method,
        retryable: false,
        mayHaveRun: false,
      });
    const response = await httpRequest(stream.endpoint, {
      method: 'POST',
      accept: ACCEPT_RESPONSE,
      body: message,
      signal,
    });
    if (response.status >= 200 && response.status < 300) {
      // Some servers answer in the body too; route it like anything from the stream.
      if (response.mediaType === 'application/json') {
        const messages = parseMessages(
          await readText(response, config.maxResponseBytes, config.url, signal),
        );
        if (typeof messages !== 'string') for (const incoming of messages) this.#inbound(incoming);
        return;
      }
      return discard(response);
    }
    const text = await readText(response, config.maxResponseBytes, config.url, signal);
    throw statusError(response, text, { url: stream.endpoint.url, method });
  }
}

/**
 * The URL the endpoint event names, which must be on the server's own origin: every message, with
 * the caller's headers and credentials, is POSTed there, and a server must not aim them elsewhere.
 */
export function endpointOf(data: string, serverUrl: string): string {
  let url: URL;
  try {
    url = new URL(data.trim(), serverUrl);
  } catch {
    throw new MalformedMessageError('the endpoint event does not name a URL', {
      url: serverUrl,
      method: 'GET',
      mayHaveRun: false,
    });
  }
  const origin = new URL(serverUrl).origin;
  // The scheme first: a `blob:` URL carries the origin of the URL inside it.
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin) {
    throw new MalformedMessageError(
      `the endpoint event names another origin (${url.origin}) than the server's (${origin})`,
      { url: serverUrl, method: 'GET', mayHaveRun: false },
    );
  }
  return url.href;
}

function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
