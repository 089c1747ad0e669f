/**
 * Requests the server sends us (ping today; elicitation, sampling and roots through the
 * application's handlers). Each is answered by its own POST with the server's id, which lives in
 * a namespace apart from ours; several may run at once, and the server may cancel any of them.
 */
import { asError } from '../errors.ts';
import {
  failure,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type RequestId,
  RpcCode,
  success,
} from '../jsonrpc.ts';
import type { DialectEvents } from './dialect.ts';

/** Answers one server request, or throws; `signal` fires when the server cancels it. */
export type RequestHandler = (request: JsonRpcRequest, signal: AbortSignal) => Promise<JsonObject>;

export class Inbound {
  readonly #running = new Map<RequestId, AbortController>();

  readonly #post: (message: JsonRpcMessage) => Promise<void>;
  readonly #events: DialectEvents;
  readonly #handler: RequestHandler | undefined;

  constructor(
    post: (message: JsonRpcMessage) => Promise<void>,
    events: DialectEvents,
    handler: RequestHandler | undefined,
  ) {
    this.#post = post;
    this.#events = events;
    this.#handler = handler;
  }

  receive(request: JsonRpcRequest): void {
    const controller = new AbortController();
    this.#running.set(request.id, controller);
    void this.#answer(request, controller.signal)
      .then((reply) => (controller.signal.aborted ? undefined : this.#post(reply)))
      .catch((error: unknown) => this.#events.warning(asError(error)))
      .finally(() => this.#running.delete(request.id));
  }

  cancel(requestId: RequestId): void {
    this.#running.get(requestId)?.abort(new Error('cancelled by the server'));
  }

  closeAll(): void {
    for (const controller of this.#running.values()) controller.abort(new Error('client closed'));
    this.#running.clear();
  }

  async #answer(request: JsonRpcRequest, signal: AbortSignal): Promise<JsonRpcMessage> {
    if (request.method === 'ping') return success(request.id, {});
    if (!this.#handler) {
      return failure(request.id, {
        code: RpcCode.methodNotFound,
        message: `the client does not handle ${request.method}`,
      });
    }
    try {
      return success(request.id, await this.#handler(request, signal));
    } catch (error) {
      return failure(request.id, { code: RpcCode.internalError, message: asError(error).message });
    }
  }
}
