/**
 * Requests the server sends us (2025 revisions): `ping`, and the questions, handed to the `ask`
 * the dialect was given. Each is answered by its own message with the server's id, which lives
 * in a namespace apart from ours; several may run at once, and the server may cancel any of them.
 * A question that came on a call's own stream belongs to that call: it runs under the call's
 * deadline, and when it cannot be answered the call fails with the reason, through its waiter.
 */

import { asError } from '../core/call-boundary.ts';
import { Deadline } from '../core/deadline.ts';
import { ClientClosedError } from '../core/errors.ts';
import {
  failure,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type RequestId,
  success,
} from '../core/jsonrpc.ts';
import type { ChannelEvents, Waiter } from '../wire/channels/channel.ts';
import type { Ask } from './dialect.ts';

export interface InboundConfig {
  url: string;
  /** Answers the server's questions (the application's handlers, above the dialects). */
  ask: Ask;
  /** How long a question that belongs to no call may take to answer. */
  timeoutMs: number;
}

export class Inbound {
  readonly #running = new Map<RequestId, AbortController>();

  readonly #post: (message: JsonRpcMessage) => Promise<void>;
  readonly #events: ChannelEvents;
  readonly #config: InboundConfig;

  constructor(
    post: (message: JsonRpcMessage) => Promise<void>,
    events: ChannelEvents,
    config: InboundConfig,
  ) {
    this.#post = post;
    this.#events = events;
    this.#config = config;
  }

  /** Answers `request`; `call` is the call whose stream carried it, if any. */
  receive(request: JsonRpcRequest, call?: Waiter): void {
    const cancelled = new AbortController();
    this.#running.set(request.id, cancelled);
    void this.#answer(request, cancelled.signal, call)
      .then((response) => (cancelled.signal.aborted ? undefined : this.#post(response)))
      // An answer that could not go out because the client closed is nobody's concern.
      .catch((error: unknown) => {
        if (!cancelled.signal.aborted) this.#events.warning(asError(error));
      })
      .finally(() => this.#running.delete(request.id));
  }

  cancel(requestId: RequestId): void {
    this.#running.get(requestId)?.abort(new Error('cancelled by the server'));
  }

  closeAll(): void {
    for (const controller of this.#running.values()) {
      controller.abort(new ClientClosedError({ url: this.#config.url }));
    }
    this.#running.clear();
  }

  async #answer(
    request: JsonRpcRequest,
    cancelled: AbortSignal,
    call: Waiter | undefined,
  ): Promise<JsonRpcMessage> {
    if (request.method === 'ping') return success(request.id, {});
    // A question of a call lives as long as the call; any other gets the client's timeout.
    using own = call?.deadline
      ? undefined
      : new Deadline({
          timeoutMs: this.#config.timeoutMs,
          maxTimeoutMs: this.#config.timeoutMs,
          context: { url: this.#config.url, method: request.method },
        });
    const limit = (call?.deadline ?? own)!.signal;
    const answer = await this.#config.ask(request, {
      signal: AbortSignal.any([cancelled, limit]),
      tool: call?.tool,
    });
    if (answer.ok) return success(request.id, answer.result);
    if (!cancelled.aborted) {
      // The call cannot go on as the server meant it to: end it with the reason, not the
      // server's later reaction to our refusal.
      if (call?.fail) call.fail(answer.error);
      else if (!call) this.#events.warning(answer.error);
    }
    return failure(request.id, answer.refusal);
  }
}
