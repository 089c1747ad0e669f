import { MalformedMessageError } from '../../core/errors.ts';
import { IdTable } from '../../core/id-table.ts';
import type { Incoming, RequestId } from '../../core/jsonrpc.ts';
import type { Progress } from '../../core/types.ts';
import type { ChannelEvents, InboundRequests, Waiter } from './channel.ts';

export class Router {
  readonly #waiters = new IdTable<Waiter>();

  readonly #events: ChannelEvents;
  readonly #inbound: InboundRequests;
  readonly #url: string;

  constructor(events: ChannelEvents, inbound: InboundRequests, url: string) {
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
