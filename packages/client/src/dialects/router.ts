/**
 * Routes every message the server sends, whichever stream it came on: responses to the call
 * waiting for them, progress to that call's listener, server requests to the inbound handler,
 * everything else to the client's events. A response may arrive on another stream than the
 * request's (after a resume), so routing is by id, never by stream.
 */
import type { Deadline } from '../deadline.ts';
import { MalformedMessageError, type McpError } from '../errors.ts';
import { IdTable } from '../id-table.ts';
import type { Incoming, JsonRpcRequest, JsonRpcResponse, RequestId } from '../jsonrpc.ts';
import type { DialectEvents, Progress } from './dialect.ts';

/** Where the server's own requests go (inbound.ts): answered, or cancelled by the server. */
export interface InboundRequests {
  receive(request: JsonRpcRequest, call?: Waiter): void;
  cancel(requestId: RequestId): void;
}

export interface Waiter {
  readonly id: RequestId;
  response: JsonRpcResponse | undefined;
  onProgress: ((progress: Progress) => void) | undefined;
  /** Called when the response arrives, for a caller that waits on another stream than its own. */
  arrived?: (() => void) | undefined;
  /** The call's deadline: questions the server asks on the call's stream live under it. */
  deadline?: Deadline | undefined;
  /**
   * Ends the call with `error` at once: a question on its stream that the client cannot answer
   * means the call cannot go on as the server meant it to. Set by the dialect while it waits.
   */
  fail?: ((error: McpError) => void) | undefined;
  /** The tool being called, for the handlers' context and error messages. */
  tool?: string | undefined;
}

export class Router {
  readonly #waiters = new IdTable<Waiter>();

  readonly #events: DialectEvents;
  readonly #inbound: InboundRequests;
  readonly #url: string;

  constructor(events: DialectEvents, inbound: InboundRequests, url: string) {
    this.#events = events;
    this.#inbound = inbound;
    this.#url = url;
  }

  /** Registers a call; its progress token is its request id. Call `forget` when it settles. */
  expect(
    id: RequestId,
    onProgress?: (progress: Progress) => void,
    call: Pick<Waiter, 'deadline' | 'tool'> = {},
  ): Waiter {
    const waiter: Waiter = { id, response: undefined, onProgress, ...call };
    this.#waiters.set(id, waiter);
    return waiter;
  }

  forget(waiter: Waiter): void {
    this.#waiters.delete(waiter.id);
  }

  /** Routes one message; `stream` is the call whose stream carried it, if any. */
  dispatch(incoming: Incoming, stream?: Waiter): void {
    switch (incoming.kind) {
      case 'response': {
        const id = incoming.message.id;
        const waiter = id === null ? undefined : this.#waiters.get(id);
        if (waiter) {
          waiter.response ??= incoming.message;
          waiter.arrived?.();
        } else {
          this.#events.warning(
            new MalformedMessageError(
              `response to id ${String(id)}, which no call is waiting for`,
              {
                url: this.#url,
              },
            ),
          );
        }
        return;
      }
      case 'request':
        this.#inbound.receive(incoming.message, stream);
        return;
      case 'notification': {
        const { method, params } = incoming.message;
        if (method === 'notifications/progress' && params) {
          const token = params['progressToken'];
          const waiter =
            typeof token === 'string' || typeof token === 'number'
              ? this.#waiters.get(token)
              : undefined;
          if (waiter?.onProgress && typeof params['progress'] === 'number') {
            waiter.onProgress({
              progress: params['progress'],
              total: typeof params['total'] === 'number' ? params['total'] : undefined,
              message: typeof params['message'] === 'string' ? params['message'] : undefined,
            });
          }
          return;
        }
        if (method === 'notifications/cancelled' && params) {
          const requestId = params['requestId'];
          if (typeof requestId === 'string' || typeof requestId === 'number')
            this.#inbound.cancel(requestId);
          return;
        }
        this.#events.notification(incoming.message);
      }
    }
  }
}
