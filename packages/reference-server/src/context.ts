import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultController } from './faults.ts';
import {
  isObject,
  type JsonObject,
  notificationMessage,
  type RequestId,
  type RpcRequest,
  type RpcResponse,
  requestMessage,
} from './jsonrpc.ts';
import type { LoggingLevel } from './logging.ts';
import { passesThreshold } from './logging.ts';
import type { ListenerHub } from './modern/listen.ts';
import type { Protection } from './protection.ts';
import type { InFlightRequests, Session, SessionStore } from './session.ts';
import type { FixtureState } from './state.ts';
import type { TaskStore } from './tasks/store.ts';
import type { CancelledRequest } from './types.ts';

/** Everything one server instance shares between its endpoints and requests. */
export interface ServerCore {
  readonly versions: readonly string[];
  readonly sessions: SessionStore;
  readonly fixtures: FixtureState;
  readonly faults: FaultController;
  readonly cancelled: CancelledRequest[];
  /** In-flight requests of the stateless endpoint, which has no session to hold them. */
  readonly statelessInFlight: InFlightRequests;
  /** Aborted by `close()`: every sleep and wait in the server listens to it. */
  readonly closing: AbortSignal;
  /** Whether /mcp and /mcp-json serve 2026-07-28 requests too (besides the legacy revisions). */
  readonly dualEra: boolean;
  /** The open `subscriptions/listen` streams of 2026-07-28 clients. */
  readonly listeners: ListenerHub;
  /** Signs and checks `requestState` (MRTR); random per server, so state cannot be forged. */
  readonly stateKey: Buffer;
  /** Every task of every session and era. */
  readonly tasks: TaskStore;
  /** Protected mode: the token checks, when the server was started with `protect`. */
  readonly protection?: Protection | undefined;
}

/** Where messages about one request can go: an SSE stream of a POST, or an HTTP+SSE channel. */
export interface MessageSink {
  /** Whether the sink has delivered everything it ever will. */
  readonly finished: boolean;
  /** Queues one message; false when it could not be sent. */
  send(message: JsonObject, isResponse?: boolean): boolean;
}

/** What a 2026-07-28 request carries in `_meta` besides the version, for handlers to honour. */
export interface ModernRequest {
  /** `io.modelcontextprotocol/clientCapabilities`: the only capabilities a handler may rely on. */
  readonly clientCapabilities: JsonObject;
  /** `io.modelcontextprotocol/logLevel`; without it the request gets no log messages. */
  readonly logLevel: LoggingLevel | undefined;
  /** `inputResponses` of an MRTR retry, as sent (handlers check its shape). */
  readonly inputResponses: unknown;
  /** `requestState` of an MRTR retry, as sent. */
  readonly requestState: unknown;
}

/** How a server-to-client request ended. */
export type ClientReply =
  | { readonly kind: 'response'; readonly response: RpcResponse }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'unreachable' }
  | { readonly kind: 'aborted' }
  /** The server withdrew the request itself (`cancel` aborted) and told the client so. */
  | { readonly kind: 'cancelled' };

/** What a method handler may do besides computing its result. */
export interface RequestContext {
  /** The caller's session; undefined on the stateless endpoint. */
  readonly session: Session | undefined;
  readonly fixtures: FixtureState;
  /** Aborted when the client cancels the request or the server closes. */
  readonly signal: AbortSignal;
  /** `params._meta.progressToken` of the request, when the client asked for progress. */
  readonly progressToken: RequestId | undefined;
  /** Set for 2026-07-28 requests, which are stateless: everything a handler may use is here. */
  readonly modern: ModernRequest | undefined;
  /** The key that signs `requestState`. */
  readonly stateKey: Buffer;
  /** The server's tasks. */
  readonly tasks: TaskStore;
  /** Whether a log message at `level` may be sent for this request. */
  logAllows(level: LoggingLevel): boolean;
  /** Sends a message about this request: on its POST stream, else the GET stream. False if dropped. */
  sendRelated(message: JsonObject): boolean;
  /** Sends a message not tied to this request: on the GET stream, else the POST stream. */
  sendUnrelated(message: JsonObject): boolean;
  /** Notifies every session passing `filter`: the caller as `sendUnrelated`, others on their GET stream. */
  notifySessions(message: JsonObject, filter?: (session: Session) => boolean): void;
  /**
   * Sends a request to the client (related to this one) and waits up to `timeoutMs` for its
   * answer. When `cancel` aborts first, the server sends `notifications/cancelled` for it (on
   * the same stream) and stops waiting.
   */
  requestClient(
    method: string,
    timeoutMs: number,
    params?: JsonObject,
    cancel?: AbortSignal,
  ): Promise<ClientReply>;
}

function progressTokenOf(request: RpcRequest): RequestId | undefined {
  const meta = isObject(request.params) ? request.params['_meta'] : undefined;
  const token = isObject(meta) ? meta['progressToken'] : undefined;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/**
 * Builds the context for one request; `stream` is where messages about it go (its POST's SSE
 * stream, an HTTP+SSE channel, or a 2026-07-28 response stream), when it has one.
 */
export function createContext(
  core: ServerCore,
  request: RpcRequest,
  session: Session | undefined,
  stream: MessageSink | undefined,
  signal: AbortSignal,
  modern?: ModernRequest,
): RequestContext {
  const openPostStream = () => (stream !== undefined && !stream.finished ? stream : undefined);
  const sendRelated = (message: JsonObject): boolean => {
    const target = openPostStream() ?? session?.connectedStandalone();
    return target?.send(message) ?? false;
  };
  const sendUnrelated = (message: JsonObject): boolean => {
    const target = session?.connectedStandalone() ?? openPostStream();
    return target?.send(message) ?? false;
  };
  return {
    session,
    fixtures: core.fixtures,
    signal,
    progressToken: progressTokenOf(request),
    modern,
    stateKey: core.stateKey,
    tasks: core.tasks,
    logAllows(level) {
      // 2026-07-28 has no logging/setLevel: a request without a level in _meta asked for no logs.
      if (modern !== undefined) {
        return modern.logLevel !== undefined && passesThreshold(level, modern.logLevel);
      }
      return passesThreshold(level, session?.logLevel);
    },
    sendRelated,
    sendUnrelated,
    notifySessions(message, filter = () => true) {
      for (const other of core.sessions.all()) {
        if (!filter(other)) continue;
        if (other === session) sendUnrelated(message);
        else other.connectedStandalone()?.send(message);
      }
      // 2026-07-28 clients hear about changes only on their subscriptions/listen streams.
      core.listeners.publish(message);
    },
    async requestClient(method, timeoutMs, params, cancel) {
      if (session === undefined) return { kind: 'unreachable' };
      const pending = session.expectResponse();
      try {
        if (!sendRelated(requestMessage(pending.id, method, params)))
          return { kind: 'unreachable' };
        // A private controller stops the timeout timer as soon as the answer arrives.
        const timer = new AbortController();
        const timeout = sleep(timeoutMs, { kind: 'timeout' } as const, {
          signal: AbortSignal.any([signal, timer.signal]),
        }).catch(() => ({ kind: 'aborted' }) as const);
        const answered = pending.response.then(
          (response) => ({ kind: 'response', response }) as const,
        );
        const withdrawn = new Promise<ClientReply>((resolve) => {
          if (cancel === undefined) return;
          const withdraw = () => {
            sendRelated(
              notificationMessage('notifications/cancelled', {
                requestId: pending.id,
                reason: 'the server no longer needs the answer',
              }),
            );
            resolve({ kind: 'cancelled' });
          };
          if (cancel.aborted) withdraw();
          else cancel.addEventListener('abort', withdraw, { once: true, signal: timer.signal });
        });
        try {
          return await Promise.race([answered, timeout, withdrawn]);
        } finally {
          timer.abort();
        }
      } finally {
        pending.forget();
      }
    },
  };
}
