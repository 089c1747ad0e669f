/**
 * 2026-07-28 over stdio: stateless, everything a request needs in its `_meta`, no headers to
 * check. What a request has to say before its answer (progress, logs) goes out as notifications
 * on the same pipe; `notifications/cancelled` is how the client stops it; a `subscriptions/listen`
 * request stays open, its notifications tagged with its id, until the client cancels it.
 */
import { createContext, type MessageSink, type ServerCore } from '../context.ts';
import {
  ErrorCode,
  errorMessage,
  idKey,
  isObject,
  type JsonObject,
  RpcError,
  type RpcIncoming,
  type RpcRequest,
  resultMessage,
} from '../jsonrpc.ts';
import { checkMeta, MODERN_VERSIONS, ModernCode, Refusal } from '../modern/envelope.ts';
import { type ListenReply, parseFilter } from '../modern/listen.ts';
import { decorate, modernMethods } from '../modern/methods.ts';
import { receiveNotification } from '../post.ts';

export class ModernStdio {
  readonly #core: ServerCore;
  readonly #supported: string[];
  readonly #modernOnly: boolean;
  readonly #write: (message: JsonObject) => boolean;
  /** Open subscriptions/listen requests, by id: cancelling one ends it. */
  readonly #listens = new Map<string, AbortController>();

  constructor(core: ServerCore, modernOnly: boolean, write: (message: JsonObject) => boolean) {
    this.#core = core;
    this.#modernOnly = modernOnly;
    this.#supported = modernOnly ? [...MODERN_VERSIONS] : [...MODERN_VERSIONS, ...core.versions];
    this.#write = write;
  }

  async receive(message: RpcIncoming): Promise<void> {
    if (message.kind === 'response') return;
    if (message.kind === 'notification') {
      const params = isObject(message.params) ? message.params : {};
      const id = params['requestId'];
      if (
        message.method === 'notifications/cancelled' &&
        (typeof id === 'string' || typeof id === 'number')
      ) {
        this.#listens.get(idKey(id))?.abort();
      }
      receiveNotification(this.#core, undefined, message);
      return;
    }
    try {
      await this.#serve(message);
    } catch (error) {
      if (error instanceof Refusal || error instanceof RpcError) {
        this.#write(errorMessage(message.id, error.code, error.message, error.data));
      } else if (!this.#core.closing.aborted) {
        this.#write(
          errorMessage(message.id, ErrorCode.InternalError, `Internal error: ${String(error)}`),
        );
      }
    }
  }

  /** Ends every open subscription with its final response, as a closing server does. */
  closeAll(): void {
    void this.#core.listeners.closeAll();
    for (const controller of this.#listens.values()) controller.abort();
    this.#listens.clear();
  }

  async #serve(request: RpcRequest): Promise<void> {
    const params: JsonObject = isObject(request.params) ? request.params : {};
    if (request.method === 'initialize' && this.#modernOnly) {
      // Legacy clients cannot fall forward: naming the versions is all the help they can get.
      throw new Refusal(
        400,
        ModernCode.UnsupportedProtocolVersion,
        `This server speaks only MCP ${this.#supported.join(', ')}; initialize is not part of it`,
        { supported: this.#supported, requested: String(params['protocolVersion'] ?? '') },
      );
    }
    const modern = checkMeta(request.params, this.#supported);
    if (request.method === 'subscriptions/listen') {
      this.#core.listeners.open(request.id, parseFilter(params), this.#listenReply(request));
      return;
    }
    const method = modernMethods(this.#supported).get(request.method);
    if (method === undefined) {
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    }
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, this.#core.closing]);
    const inFlight = this.#core.statelessInFlight;
    inFlight.add(request.id, controller);
    const sink: MessageSink = {
      get finished() {
        return signal.aborted;
      },
      send: (message) => this.#write(message),
    };
    try {
      const ctx = createContext(this.#core, request, undefined, sink, signal, modern);
      let result: unknown;
      try {
        result = await method(params, ctx);
      } catch (error) {
        // A cancelled request gets no answer at all, not even an error.
        if (signal.aborted) return;
        throw error;
      }
      if (!signal.aborted) this.#write(resultMessage(request.id, decorate(request.method, result)));
    } finally {
      inFlight.remove(request.id, controller);
    }
  }

  /** A listen stream on the pipe: open until cancelled, or until the server closes. */
  #listenReply(request: RpcRequest): ListenReply {
    const cancel = new AbortController();
    this.#listens.set(idKey(request.id), cancel);
    let done = false;
    return {
      cancelled: cancel.signal,
      send: (message) => !done && this.#write(message),
      keepAlive: () => {},
      finish: (_status, message) => {
        if (done) return;
        done = true;
        this.#write(message);
      },
      flushed: () => Promise.resolve(),
    };
  }
}
