/**
 * What the server says outside any call's answer, as typed events. A listener that throws is
 * reported as a `warning`, never allowed to break the stream that delivered the message.
 */
import { asError } from '../core/call-boundary.ts';
import type { JsonObject, JsonRpcNotification } from '../core/jsonrpc.ts';
import type { LogMessage } from '../core/types.ts';
import type { PolicyNote } from '../policy/types.ts';

export interface ClientEvents {
  /** A `notifications/message` log entry. */
  log: (message: LogMessage) => void;
  /** The server's tool list changed; the client's cache is already dropped. */
  toolsChanged: () => void;
  resourcesChanged: () => void;
  promptsChanged: () => void;
  /** A subscribed resource changed. */
  resourceUpdated: (uri: string) => void;
  /** The server says the user finished a URL elicitation (2025-11-25). */
  elicitationComplete: (elicitationId: string) => void;
  /** Every notification the server sends, including the ones above. */
  notification: (method: string, params: JsonObject | undefined) => void;
  /** Something failed in the background (a stream that gave up, a reply that could not be sent). */
  warning: (error: Error) => void;
  /** One line a local (stdio) server wrote to its stderr: its logs, not a sign of failure. */
  stderr: (line: string) => void;
  /**
   * The `policy` option at work: a call waited for a slot or the rate (`queued`), was held by a
   * 429 (`slowed`), the server answered 429 (`pushback`), or a result was reused (`reused`).
   */
  policy: (note: PolicyNote) => void;
}

type Listener = (...args: never[]) => void;

export class EventHub {
  readonly #listeners = new Map<keyof ClientEvents, Set<Listener>>();

  on<E extends keyof ClientEvents>(event: E, listener: ClientEvents[E]): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<E extends keyof ClientEvents>(event: E, ...args: Parameters<ClientEvents[E]>): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of set) {
      try {
        (listener as (...a: Parameters<ClientEvents[E]>) => void)(...args);
      } catch (error) {
        if (event !== 'warning') this.emit('warning', asError(error));
      }
    }
  }

  /** Hands a server notification on: as itself, then as the typed event it implies, if any. */
  notify(message: JsonRpcNotification, event = eventOf(message)): void {
    this.emit('notification', message.method, message.params);
    if (event) (this.emit as (...args: ClientEvent) => void).apply(this, event);
  }
}

/** A typed event with its arguments, as `emit` takes them. */
export type ClientEvent = {
  [E in keyof ClientEvents]: [E, ...Parameters<ClientEvents[E]>];
}[keyof ClientEvents];

/** The typed event a server notification implies: the one place a method becomes an event. */
export function eventOf(message: JsonRpcNotification): ClientEvent | undefined {
  const { method, params } = message;
  switch (method) {
    case 'notifications/message':
      return params ? ['log', params as unknown as LogMessage] : undefined;
    case 'notifications/tools/list_changed':
      return ['toolsChanged'];
    case 'notifications/resources/list_changed':
      return ['resourcesChanged'];
    case 'notifications/prompts/list_changed':
      return ['promptsChanged'];
    case 'notifications/resources/updated':
      return typeof params?.['uri'] === 'string' ? ['resourceUpdated', params['uri']] : undefined;
    case 'notifications/elicitation/complete':
      return typeof params?.['elicitationId'] === 'string'
        ? ['elicitationComplete', params['elicitationId']]
        : undefined;
    default:
      return undefined;
  }
}
