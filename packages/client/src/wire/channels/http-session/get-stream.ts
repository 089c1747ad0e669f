/**
 * The GET stream: where a stateful server sends what belongs to no call (list changes, resource
 * updates, log messages, its own requests). Kept open in the background; when it breaks it is
 * reopened with Last-Event-ID, with jittered backoff, and given up after a bounded number of
 * failures in a row. A 405 means the server offers no such stream, which is fine.
 */

import pRetry from 'p-retry';
import { sleep } from '../../../core/deadline.ts';
import { isMcpError, TransportError } from '../../../core/errors.ts';
import type { Incoming } from '../../../core/jsonrpc.ts';
import { discard, readText, statusError } from '../../transport/http.ts';
import {
  consumesRetry,
  readMessages,
  StreamEnded,
  type StreamPosition,
} from '../../transport/sse.ts';
import type { ChannelEvents } from '../channel.ts';
import { ACCEPT_STREAM, httpRequest } from '../http-request.ts';
import type { SessionTarget } from './exchange.ts';
import { SessionNotFound } from './session.ts';

export class GetStream {
  readonly #controller = new AbortController();
  #running: Promise<void> | undefined;

  readonly #target: SessionTarget;
  readonly #deliver: (incoming: Incoming) => void;
  readonly #events: Pick<ChannelEvents, 'warning'>;
  readonly #onSessionLost: () => void;

  /** What the stream carries goes to `deliver`; a session it finds gone, to `onSessionLost`. */
  constructor(
    target: SessionTarget,
    deliver: (incoming: Incoming) => void,
    events: Pick<ChannelEvents, 'warning'>,
    onSessionLost: () => void,
  ) {
    this.#target = target;
    this.#deliver = deliver;
    this.#events = events;
    this.#onSessionLost = onSessionLost;
  }

  start(): void {
    this.#running = this.#run().catch((error: unknown) => {
      if (this.#controller.signal.aborted) return;
      if (error instanceof SessionNotFound) this.#onSessionLost();
      else if (isMcpError(error)) this.#events.warning(error);
      else {
        const { url } = this.#target.config;
        const gaveUp = 'the GET stream ended and could not be reopened';
        this.#events.warning(new TransportError(gaveUp, { url, method: 'GET', cause: error }));
      }
    });
  }

  async stop(): Promise<void> {
    this.#controller.abort(new Error('listen stream stopped'));
    await this.#running;
  }

  async #run(): Promise<void> {
    const { config } = this.#target;
    const signal = this.#controller.signal;
    const position: StreamPosition = { lastEventId: undefined, retryMs: undefined };
    await pRetry(() => this.#listenOnce(position, signal), {
      retries: config.reconnectAttempts,
      minTimeout: config.retry.minDelayMs,
      maxTimeout: config.retry.maxDelayMs,
      randomize: true,
      signal,
      shouldConsumeRetry: consumesRetry,
      shouldRetry: async ({ error }) => {
        if (error instanceof SessionNotFound) return false;
        // The server's `retry:` is a floor it asked for, and `minDelayMs` is the client's: a
        // server that asks for 0 and closes every stream at once gets no busy loop.
        await sleep(Math.max(position.retryMs ?? 0, config.retry.minDelayMs), signal);
        return true;
      },
    });
  }

  /** Opens the stream and routes what arrives; resolves only when the server offers none. */
  async #listenOnce(position: StreamPosition, signal: AbortSignal): Promise<void> {
    const { config, session } = this.#target;
    const extra: Record<string, string> = position.lastEventId
      ? { 'last-event-id': position.lastEventId }
      : {};
    const response = await httpRequest(config, {
      method: 'GET',
      accept: ACCEPT_STREAM,
      sessionId: session.id,
      version: session.headerVersion,
      envelope: extra,
      signal,
    });
    if (response.status === 405) return discard(response);
    if (response.status === 404 && session.id !== undefined) {
      discard(response);
      session.lost = true;
      throw new SessionNotFound(false);
    }
    if (response.status !== 200 || response.mediaType !== 'text/event-stream') {
      const text = await readText(response, config.maxResponseBytes, config.url, signal);
      throw statusError(response, text, { url: config.url, method: 'GET' });
    }
    const resumedFrom = position.lastEventId;
    let delivered = false;
    for await (const incoming of readMessages(response.body, {
      url: config.url,
      maxEventSize: config.maxEventSize,
      signal,
      position,
    })) {
      delivered = true;
      this.#deliver(incoming);
    }
    throw new StreamEnded(delivered || position.lastEventId !== resumedFrom);
  }
}
