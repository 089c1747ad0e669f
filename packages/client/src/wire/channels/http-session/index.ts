/**
 * Streamable HTTP as a channel with a session (MCP 2025-11-25 and before): the session id and
 * the version header on every request after `initialize`, answers as JSON or as event streams
 * resumed by GET + Last-Event-ID in the request's own session, the GET stream for what belongs to
 * no request, DELETE on close, and `notifications/cancelled` for a request abandoned (closing a
 * stream does not cancel in these revisions).
 *
 * A session the server forgets (a 404 to a request that carried its id) is renewed as one
 * critical section: one renewal at a time, every request waits for it (under its own deadline)
 * and goes out with the new id, and a renewal that fails is tried again, with backoff, by the
 * next request that needs it. The renewal is the dialect's handshake (`keepSession`), run in a
 * Session of its own and swapped in whole. A request is sent again in the new session only when
 * that is safe (transport/retry.ts: it is idempotent, or did not run).
 */

import { asError } from '../../../core/call-boundary.ts';
import { Deadline, raceAbort, sleep } from '../../../core/deadline.ts';
import { ClientClosedError, SessionExpiredError } from '../../../core/errors.ts';
import {
  type Incoming,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
  notification,
  type RequestId,
} from '../../../core/jsonrpc.ts';
import { discard } from '../../transport/http.ts';
import { refusedResponse, withRetry } from '../../transport/retry.ts';
import { Cancellations, CLOSE_GRACE_MS } from '../cancellations.ts';
import type { Channel, ChannelCall, ChannelEvents, SessionOpening } from '../channel.ts';
import { ACCEPT_RESPONSE, httpRequest } from '../http-request.ts';
import {
  deliver,
  type Exchanged,
  exchange,
  type SessionCall,
  type SessionTarget,
} from './exchange.ts';
import { GetStream } from './get-stream.ts';
import { type HttpSessionConfig, Session, SessionNotFound } from './session.ts';

export type { HttpSessionConfig } from './session.ts';

type Opener = (deadline: Deadline, opening: SessionOpening) => Promise<void>;
type Where = { url: string; method: string; tool?: string | undefined };

/** No session yet: the first request that needs one waits for `openSession`. */
function noSession(): Session {
  const session = new Session();
  session.lost = true;
  return session;
}

export class StreamableHttpSessionChannel implements Channel {
  readonly label: string;
  /** These revisions mirror nothing into headers. */
  readonly mirrors = false;
  readonly #config: HttpSessionConfig;
  /** The session requests go out in; a renewal replaces it whole. */
  #session = noSession();
  readonly #target: SessionTarget;
  #inbound: (incoming: Incoming) => void = () => {};
  #events: Pick<ChannelEvents, 'warning'> = { warning: () => {} };
  #open: Opener | undefined;
  #stream: GetStream | undefined;
  /** The renewal under way; everyone who needs a session waits for this one. */
  #renewing: Promise<void> | undefined;
  /** Renewals that failed in a row, and when the next one may start (backoff). */
  #renewFailures = 0;
  #renewAfter = 0;
  readonly #closed = new AbortController();
  #closing = false;
  readonly #cancellations = new Cancellations();

  constructor(config: HttpSessionConfig) {
    this.label = config.url;
    this.#config = config;
    const current = () => this.#session;
    this.#target = {
      config,
      get session() {
        return current();
      },
    };
  }

  attach(inbound: (incoming: Incoming) => void, events: ChannelEvents): void {
    this.#inbound = inbound;
    this.#events = events;
  }

  keepSession(open: Opener): void {
    this.#open = open;
  }

  /** Opens the first session under the caller's deadline: its failure is the caller's. */
  async openSession(deadline: Deadline): Promise<void> {
    if (this.#session.lost) await this.#openIn(deadline);
  }

  /**
   * Sends in the current session, renewing it first when it is gone. A request whose session
   * vanished is sent again in the new one when that is safe, as often as its deadline allows.
   */
  request<T>(
    message: JsonRpcRequest,
    call: ChannelCall,
    read: (response: JsonRpcResponse) => T | Promise<T>,
  ): Promise<T> {
    return this.#request(message, call).then(read);
  }

  async #request(message: JsonRpcRequest, call: ChannelCall): Promise<JsonRpcResponse> {
    const sessionCall = withWaiter(call);
    const { deadline } = call;
    // Where the call went, for an error about its session: built only when one is thrown.
    const where = () => ({ url: this.label, method: message.method, tool: call.tool });
    const retry = { idempotent: call.idempotent, deadline, refused: refusedExchange };
    for (let lost = 1; ; lost++) {
      if (this.#session.lost) await this.#ready(deadline, where());
      try {
        // One request in the current session, sent again within it as the retry policy allows.
        const exchanged = await withRetry(
          () => exchange(this.#target, message, sessionCall),
          this.#config.retry,
          retry,
        );
        return exchanged.response;
      } catch (error) {
        // Closing a legacy stream does not cancel the request: the server must be told. A call
        // ended by close() needs no word: ending the session stops it.
        const reason = deadline.reason;
        if (deadline.aborted && !this.#closing && !(reason instanceof ClientClosedError))
          this.#cancel(message.id, reason);
        if (!(error instanceof SessionNotFound)) throw error;
        if (deadline.mayHaveRun && !call.idempotent) {
          throw new SessionExpiredError({ ...where(), mayHaveRun: true });
        }
        // Under many concurrent calls a session is lost for every call in flight, so a call may
        // live through several; its deadline bounds them. A server that forgets every session at
        // once is not hammered: the first replay goes at once, later ones after a growing pause.
        const { minDelayMs, maxDelayMs } = this.#config.retry;
        if (lost > 1) {
          await sleep(Math.min(minDelayMs * 2 ** (lost - 2), maxDelayMs), deadline.signal);
        }
      }
    }
  }

  send(message: JsonRpcMessage, signal: AbortSignal): Promise<void> {
    return deliver(this.#target, message, signal);
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    await this.#cancellations.settle(CLOSE_GRACE_MS);
    this.#closed.abort(new ClientClosedError({ url: this.label }));
    // A renewal under way ends at once (its deadline follows the close) and starts nothing.
    await this.#renewing?.catch(() => {});
    await this.#stream?.stop();
    await this.#endSession(this.#session);
  }

  /**
   * Returns once the current session is one the server knows, as far as the client can tell:
   * waits for the renewal under way, or starts one. A renewal that fails is tried again (after
   * its backoff) up to `retry.retries` times for this call, then the call fails typed.
   */
  async #ready(deadline: Deadline, where: Where): Promise<void> {
    for (let failures = 0; this.#session.lost; ) {
      try {
        await raceAbort(this.#renew(), deadline.signal);
      } catch (error) {
        if (deadline.aborted) throw deadline.reason;
        failures += 1;
        if (failures > this.#config.retry.retries) {
          throw new SessionExpiredError({
            ...where,
            reason: 'session expired and a new one could not be started',
            mayHaveRun: deadline.mayHaveRun,
            cause: error,
          });
        }
      }
    }
  }

  /**
   * Runs the dialect's handshake in a Session of its own and swaps it in whole once the
   * handshake is through: until then, requests go out in the old session (or none, at first).
   */
  async #openIn(deadline: Deadline): Promise<void> {
    const open = this.#open;
    if (!open) throw new TypeError('a session channel needs keepSession() before a session');
    const config = this.#config;
    let pending = new Session();
    let stream = false;
    const opening: SessionOpening = {
      request: async (message, call) => {
        // Each `initialize` starts afresh: a refused one leaves no session to speak in.
        const target: SessionTarget = { config, session: new Session() };
        pending = target.session;
        const exchanged = await withRetry(
          () => exchange(target, message, withWaiter(call)),
          config.retry,
          { idempotent: true, deadline: call.deadline },
        );
        target.session.id = exchanged.http.header('mcp-session-id');
        return { response: exchanged.response, status: exchanged.http.status };
      },
      send: (message, within) => {
        const target: SessionTarget = { config, session: pending };
        return withRetry(() => deliver(target, message, within.signal), config.retry, {
          idempotent: true,
          deadline: within,
        });
      },
      opened: (version, options) => {
        pending.version = version;
        stream = options.stream;
      },
    };
    try {
      await open(deadline, opening);
    } catch (error) {
      // The server may have made a session we cannot use: end it before giving up.
      if (pending.version === '') await this.#endSession(pending);
      throw error;
    }
    this.#session = pending;
    if (stream && !this.#closed.signal.aborted) {
      // The stream belongs to this session: if it finds the session gone after a call has
      // already renewed it, the session it marks lost is no longer the current one.
      this.#stream = new GetStream(
        this.#target,
        (incoming) => this.#inbound(incoming),
        this.#events,
        () => {
          this.#renew().catch((error: unknown) => this.#events.warning(asError(error)));
        },
      );
      this.#stream.start();
    }
  }

  /**
   * Starts a new session, once, however many requests found the old one gone at the same time.
   * After a failed renewal the next one waits its backoff (doubling, capped, with jitter).
   */
  #renew(): Promise<void> {
    this.#renewing ??= (async () => {
      const wait = this.#renewAfter - performance.now();
      if (wait > 0) await sleep(wait, this.#closed.signal);
      await this.#stream?.stop();
      this.#stream = undefined;
      using deadline = this.#backgroundDeadline('initialize');
      await this.#openIn(deadline);
      this.#renewFailures = 0;
    })()
      .catch((error: unknown) => {
        this.#renewFailures += 1;
        const { minDelayMs, maxDelayMs } = this.#config.retry;
        // As p-retry does: doubling, with jitter, never past maxDelayMs.
        const jittered = minDelayMs * 2 ** (this.#renewFailures - 1) * (1 + Math.random());
        this.#renewAfter = performance.now() + Math.min(jittered, maxDelayMs);
        throw error;
      })
      .finally(() => {
        this.#renewing = undefined;
      });
    return this.#renewing;
  }

  #cancel(requestId: RequestId, reason: unknown): void {
    const text = reason instanceof Error ? reason.message : 'cancelled';
    const deadline = this.#backgroundDeadline('notifications/cancelled');
    this.#cancellations.track(
      deliver(
        this.#target,
        notification('notifications/cancelled', { requestId, reason: text }),
        deadline.signal,
      )
        .catch((error: unknown) => this.#events.warning(asError(error)))
        .finally(() => deadline[Symbol.dispose]()),
    );
  }

  async #endSession(session: Session): Promise<void> {
    if (session.id === undefined || session.lost) return;
    using deadline = new Deadline({
      timeoutMs: CLOSE_GRACE_MS,
      maxTimeoutMs: CLOSE_GRACE_MS,
      context: { url: this.label, method: 'DELETE' },
    });
    try {
      const response = await httpRequest(this.#config, {
        method: 'DELETE',
        accept: ACCEPT_RESPONSE,
        sessionId: session.id,
        version: session.headerVersion,
        signal: deadline.signal,
      });
      discard(response);
    } catch {
      // The server may be gone already; a session it forgot needs no goodbye.
    }
    session.lost = true;
  }

  #backgroundDeadline(method: string): Deadline {
    return new Deadline({
      timeoutMs: this.#config.timeoutMs,
      maxTimeoutMs: this.#config.maxTimeoutMs,
      signal: this.#closed.signal,
      context: { url: this.label, method },
    });
  }
}

/** A JSON-RPC protocol error in answer proves the server refused the request. */
const refusedExchange = (exchanged: Exchanged) => refusedResponse(exchanged.response);

/** Over this binding a response may come on any stream: the dialect's router says when it has. */
function withWaiter(call: ChannelCall): SessionCall {
  if (!call.waiter) throw new TypeError('a request over a session channel needs its waiter');
  return call as SessionCall;
}
