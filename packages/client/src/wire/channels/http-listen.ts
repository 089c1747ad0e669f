/**
 * `subscriptions/listen` over Streamable HTTP: the one long-lived stream of MCP 2026-07-28,
 * carrying the change notifications the client opted in to. Reopened with jittered backoff when
 * it breaks (the caches are then stale, since changes may have been missed); a final result from
 * the server is a graceful end, and a server without the method is left alone.
 */
import pRetry from 'p-retry';
import { sleep } from '../../core/deadline.ts';
import { isMcpError, JsonRpcError, TransportError } from '../../core/errors.ts';
import { type JsonRpcRequest, notification } from '../../core/jsonrpc.ts';
import { RpcCode } from '../../core/wire-codes.ts';
import type { HttpResponse } from '../transport/http.ts';
import { consumesRetry, readMessages, StreamEnded, type StreamPosition } from '../transport/sse.ts';
import type { ChannelEvents } from './channel.ts';
import { readJsonReply } from './json-reply.ts';

/** Where the listen stream goes, its limits, and how one `subscriptions/listen` POST is opened. */
export interface ListenTarget {
  url: string;
  maxResponseBytes: number;
  maxEventSize: number;
  reconnectAttempts: number;
  minDelayMs: number;
  maxDelayMs: number;
  /** Builds and POSTs one `subscriptions/listen` request with the dialect's envelope. */
  open(signal: AbortSignal): Promise<{ request: JsonRpcRequest; response: HttpResponse }>;
}

export class Subscription {
  readonly #target: ListenTarget;
  readonly #events: ChannelEvents;
  #controller = new AbortController();
  #running: Promise<void> | undefined;

  constructor(target: ListenTarget, events: ChannelEvents) {
    this.#target = target;
    this.#events = events;
  }

  start(): void {
    const controller = new AbortController();
    this.#controller = controller;
    this.#running = this.#run(controller.signal).catch((error: unknown) => {
      if (controller.signal.aborted) return;
      if (isMcpError(error)) return this.#events.warning(error);
      const gaveUp = 'the subscription stream ended and could not be reopened';
      this.#events.warning(
        new TransportError(gaveUp, {
          url: this.#target.url,
          method: 'subscriptions/listen',
          cause: error,
        }),
      );
    });
  }

  async stop(): Promise<void> {
    this.#controller.abort(new Error('subscription stopped'));
    await this.#running;
  }

  async #run(signal: AbortSignal): Promise<void> {
    const target = this.#target;
    let first = true;
    await pRetry(
      async () => {
        if (!first) this.#events.stale?.();
        first = false;
        await this.#listenOnce(signal);
      },
      {
        retries: target.reconnectAttempts,
        minTimeout: target.minDelayMs,
        maxTimeout: target.maxDelayMs,
        randomize: true,
        signal,
        shouldConsumeRetry: consumesRetry,
        shouldRetry: async ({ error }) => {
          if (error instanceof JsonRpcError) return false;
          await sleep(target.minDelayMs, signal);
          return true;
        },
      },
    );
  }

  /** Resolves when the subscription ends for good; throws StreamEnded when it should be reopened. */
  async #listenOnce(signal: AbortSignal): Promise<void> {
    const target = this.#target;
    const { request, response } = await target.open(signal);
    if (response.status !== 200 || response.mediaType !== 'text/event-stream') {
      const answer = await readJsonReply(response, request, {
        url: target.url,
        maxResponseBytes: target.maxResponseBytes,
        signal,
        route: () => {},
      });
      // A server without subscriptions says so with an error: nothing to listen to, no retry.
      if ('error' in answer) {
        if (answer.error.code === RpcCode.methodNotFound) return;
        throw new JsonRpcError(answer.error.code, answer.error.message, {
          url: target.url,
          method: 'subscriptions/listen',
          data: answer.error.data,
        });
      }
      return;
    }
    const position: StreamPosition = { lastEventId: undefined, retryMs: undefined };
    let delivered = false;
    for await (const incoming of readMessages(response.body, {
      url: target.url,
      maxEventSize: target.maxEventSize,
      signal,
      position,
    })) {
      if (incoming.kind === 'response') {
        if (incoming.message.id === request.id) return;
        continue;
      }
      if (incoming.kind !== 'notification') continue;
      delivered = true;
      const { method, params } = incoming.message;
      if (method === 'notifications/subscriptions/acknowledged') continue;
      this.#events.notification(notification(method, params));
    }
    throw new StreamEnded(delivered);
  }
}
