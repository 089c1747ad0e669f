/**
 * `subscriptions/listen` (2026-07-28): the long-lived streams that replace the GET stream and
 * `resources/subscribe`. Each stream gets only the notification types its filter asked for, each
 * tagged with the listen request's id as its subscription id.
 */
import { ErrorCode, isObject, type JsonObject, type RequestId, RpcError } from '../jsonrpc.ts';

export const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** The filter of one listen request, reduced to what this server can deliver. */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** Where a listen stream goes: an HTTP answer (ModernReply), or the stdio pipe. */
export interface ListenReply {
  /** Aborted when the client ends the subscription (closes the stream, or cancels it). */
  readonly cancelled: AbortSignal;
  send(message: JsonObject): boolean;
  keepAlive(): void;
  finish(status: number, message: JsonObject): void;
  flushed(): Promise<void>;
}

interface Listener {
  readonly id: RequestId;
  readonly filter: ListenFilter;
  readonly reply: ListenReply;
  readonly timer: NodeJS.Timeout;
}

/** Reads `params.notifications`; unknown fields are left out of what is acknowledged. */
export function parseFilter(params: JsonObject): ListenFilter {
  const wanted = params['notifications'] ?? {};
  if (!isObject(wanted))
    throw new RpcError(ErrorCode.InvalidParams, 'notifications must be an object');
  const filter: ListenFilter = {};
  for (const flag of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const) {
    const value = wanted[flag];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new RpcError(ErrorCode.InvalidParams, `notifications.${flag} must be a boolean`);
    }
    if (value === true) filter[flag] = true;
  }
  const uris = wanted['resourceSubscriptions'];
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === 'string')) {
      throw new RpcError(ErrorCode.InvalidParams, 'resourceSubscriptions must be an array of URIs');
    }
    filter.resourceSubscriptions = uris;
  }
  return filter;
}

function wants(filter: ListenFilter, message: JsonObject): boolean {
  switch (message['method']) {
    case 'notifications/tools/list_changed':
      return filter.toolsListChanged === true;
    case 'notifications/prompts/list_changed':
      return filter.promptsListChanged === true;
    case 'notifications/resources/list_changed':
      return filter.resourcesListChanged === true;
    case 'notifications/resources/updated': {
      const uri = isObject(message['params']) ? message['params']['uri'] : undefined;
      return typeof uri === 'string' && (filter.resourceSubscriptions ?? []).includes(uri);
    }
    default:
      return false;
  }
}

/** A copy of `message` whose params carry the subscription id in `_meta`. */
function tagged(message: JsonObject, id: RequestId): JsonObject {
  const params = isObject(message['params']) ? message['params'] : {};
  const meta = isObject(params['_meta']) ? params['_meta'] : {};
  return { ...message, params: { ...params, _meta: { ...meta, [SUBSCRIPTION_ID]: id } } };
}

/** Every open listen stream of one server. */
export class ListenerHub {
  readonly #listeners = new Set<Listener>();
  readonly #keepAliveMs: number;

  constructor(keepAliveMs: number) {
    this.#keepAliveMs = keepAliveMs;
  }

  /** Opens a stream: the acknowledgement first, then matching notifications until it closes. */
  open(id: RequestId, filter: ListenFilter, reply: ListenReply): void {
    reply.send({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [SUBSCRIPTION_ID]: id }, notifications: filter },
    });
    const timer = setInterval(() => reply.keepAlive(), this.#keepAliveMs);
    // A quiet stream must not keep the process alive on its own.
    timer.unref();
    const listener: Listener = { id, filter, reply, timer };
    this.#listeners.add(listener);
    reply.cancelled.addEventListener('abort', () => this.#remove(listener), { once: true });
  }

  /** Delivers a change notification to every stream whose filter asked for it. */
  publish(message: JsonObject): void {
    for (const listener of this.#listeners) {
      if (wants(listener.filter, message)) listener.reply.send(tagged(message, listener.id));
    }
  }

  /** How many streams are open (for tests and the README's promise of a clean close). */
  get size(): number {
    return this.#listeners.size;
  }

  /**
   * Ends every stream gracefully: the listen request's own (successful) response closes it, so
   * the client can tell a shutdown from a dropped connection. Resolves once those are flushed.
   */
  async closeAll(): Promise<void> {
    const flushed: Promise<void>[] = [];
    for (const listener of [...this.#listeners]) {
      this.#remove(listener);
      listener.reply.finish(200, {
        jsonrpc: '2.0',
        id: listener.id,
        result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: listener.id } },
      });
      flushed.push(listener.reply.flushed());
    }
    await Promise.all(flushed);
  }

  #remove(listener: Listener): void {
    clearInterval(listener.timer);
    this.#listeners.delete(listener);
  }
}
