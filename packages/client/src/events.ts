/**
 * What the server says outside any call's answer, as typed events. A listener that throws is
 * reported as a `warning`, never allowed to break the stream that delivered the message.
 */
import { asError } from './errors.ts';
import type { JsonObject, JsonRpcNotification } from './jsonrpc.ts';
import type { LogMessage } from './types.ts';

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

  /** Turns a server notification into the typed events it implies. */
  notify(message: JsonRpcNotification): void {
    const { method, params } = message;
    this.emit('notification', method, params);
    switch (method) {
      case 'notifications/message':
        if (params) this.emit('log', params as unknown as LogMessage);
        return;
      case 'notifications/tools/list_changed':
        this.emit('toolsChanged');
        return;
      case 'notifications/resources/list_changed':
        this.emit('resourcesChanged');
        return;
      case 'notifications/prompts/list_changed':
        this.emit('promptsChanged');
        return;
      case 'notifications/resources/updated':
        if (typeof params?.['uri'] === 'string') this.emit('resourceUpdated', params['uri']);
        return;
      case 'notifications/elicitation/complete':
        if (typeof params?.['elicitationId'] === 'string')
          this.emit('elicitationComplete', params['elicitationId']);
        return;
    }
  }
}
