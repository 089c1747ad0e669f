/**
 * Stateful MCP over Streamable HTTP: revisions 2025-11-25, 2025-06-18, 2025-03-26 (and the
 * 2024-11-05 version string). `initialize` and `notifications/initialized` open a session; every
 * later request carries its id and the version header the revision asks for.
 *
 * A session the server forgets is renewed as one critical section: one renewal at a time, every
 * request waits for it (under its own deadline) and goes out with the new id, and a renewal that
 * fails is tried again, with backoff, by the next request that needs it. A call is replayed in
 * the new session when that is safe (transport/retry.ts: it is idempotent, or did not run).
 */
import { Deadline, raceAbort, sleep } from '../../deadline.ts';
import { asError, ClientClosedError, fromJsonRpcError, SessionExpiredError } from '../../errors.ts';
import {
  type JsonRpcResponse,
  metaOf,
  notification,
  type RequestId,
  request,
} from '../../jsonrpc.ts';
import type { Outcome, PendingHandle } from '../../outcome.ts';
import { discard, send } from '../../transport/http.ts';
import { refusedResponse, withRetry } from '../../transport/retry.ts';
import { Cancellations } from '../cancellations.ts';
import type {
  Dialect,
  DialectEvents,
  Operation,
  SendContext,
  ServerDescription,
} from '../dialect.ts';
import { describeServer, initializeParams, supportedIn } from '../handshake.ts';
import { Inbound } from '../inbound.ts';
import { CLOSE_GRACE_MS, legacyEra } from '../legacy-era.ts';
import { Router } from '../router.ts';
import { deliver, exchange, type Wire } from './exchange.ts';
import { ListenStream, worthListening } from './listen.ts';
import { ACCEPT_POST, Session, SessionNotFound, type StatefulConfig } from './session.ts';
import { callOutcome, taskError, taskState, withTaskRequest } from './tasks.ts';

export type { StatefulConfig } from './session.ts';

export class StatefulDialect implements Dialect {
  readonly name = 'mcp-stateful';
  readonly adapt = legacyEra.adapt;
  readonly screenTools = legacyEra.screenTools;
  readonly freshFor = legacyEra.freshFor;
  server: ServerDescription = {
    protocolVersion: '',
    serverInfo: { name: '', version: '' },
    capabilities: {},
    instructions: undefined,
  };
  readonly #config: StatefulConfig;
  readonly #events: DialectEvents;
  readonly #wire: Wire;
  readonly #inbound: Inbound;
  readonly #closed = new AbortController();
  #closing = false;
  readonly #cancellations = new Cancellations();
  #listen: ListenStream | undefined;
  /** The renewal under way; everyone who needs a session waits for this one. */
  #renewing: Promise<void> | undefined;
  /** Renewals that failed in a row, and when the next one may start (backoff). */
  #renewFailures = 0;
  #renewAfter = 0;
  #nextId = 0;

  private constructor(config: StatefulConfig, events: DialectEvents) {
    this.#config = config;
    this.#events = events;
    const session = new Session(config);
    this.#inbound = new Inbound(
      (message) => deliver(this.#wire, message, this.#closed.signal),
      events,
      config,
    );
    this.#wire = { config, session, router: new Router(events, this.#inbound, config.url) };
  }

  /** Opens a session: `initialize`, then `notifications/initialized`, then the GET stream. */
  static async connect(
    config: StatefulConfig,
    events: DialectEvents,
    deadline: Deadline,
  ): Promise<StatefulDialect> {
    const dialect = new StatefulDialect(config, events);
    await dialect.#initialize(deadline);
    return dialect;
  }

  async send(operation: Operation, context: SendContext): Promise<Outcome> {
    return this.#send(withTaskRequest(operation, this.server.capabilities), context);
  }

  async poll(handle: PendingHandle, context: SendContext): Promise<Outcome> {
    const got = await this.#taskRequest('tasks/get', handle, context);
    if (got.kind !== 'complete') return got;
    const state = taskState(got.result, handle, { url: this.#config.url, method: 'tasks/get' });
    return state === 'collect' ? this.#taskRequest('tasks/result', handle, context) : state;
  }

  async cancel(handle: PendingHandle, signal: AbortSignal): Promise<void> {
    using deadline = new Deadline({
      timeoutMs: this.#config.timeoutMs,
      maxTimeoutMs: this.#config.timeoutMs,
      signal: AbortSignal.any([this.#closed.signal, signal]),
      context: { url: this.#config.url, method: 'tasks/cancel' },
    });
    try {
      // A task that has already ended answers -32602: nothing is left to stop.
      await this.#send(
        { method: 'tasks/cancel', params: { taskId: handle.id }, idempotent: true },
        { deadline },
      );
    } catch (error) {
      this.#events.warning(asError(error));
    }
  }

  /** A tasks/* request; its failures said in terms of the task. */
  async #taskRequest(
    method: string,
    handle: PendingHandle,
    context: SendContext,
  ): Promise<Outcome> {
    const outcome = await this.#send(
      { method, params: { taskId: handle.id }, idempotent: true },
      context,
    );
    if (outcome.kind !== 'failure') return outcome;
    const where = { url: this.#config.url, method };
    return { kind: 'failure', error: taskError(outcome.error, handle, method, where) };
  }

  /**
   * Sends in the current session, renewing it first when it is gone. A call whose session
   * vanished is replayed in the new one when that is safe, as often as its deadline allows.
   */
  async #send(operation: Operation, context: SendContext): Promise<Outcome> {
    const { deadline } = context;
    const where = { url: this.#config.url, method: operation.method, tool: operation.tool };
    for (let lost = 1; ; lost++) {
      await this.#ready(deadline, where);
      try {
        return await this.#sendOnce(operation, context);
      } catch (error) {
        if (!(error instanceof SessionNotFound)) throw error;
        if (deadline.mayHaveRun && !operation.idempotent) {
          throw new SessionExpiredError({ ...where, mayHaveRun: true });
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

  /**
   * Returns once the current session is one the server knows, as far as the client can tell:
   * waits for the renewal under way, or starts one. A renewal that fails is tried again (after
   * its backoff) up to `retry.retries` times for this call, then the call fails typed.
   */
  async #ready(
    deadline: Deadline,
    where: { url: string; method: string; tool?: string | undefined },
  ) {
    for (let failures = 0; this.#wire.session.lost; ) {
      try {
        await raceAbort(this.#renew(), deadline.signal);
      } catch (error) {
        if (deadline.signal.aborted) throw deadline.signal.reason;
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

  notify(method: string, signal: AbortSignal): Promise<void> {
    return deliver(this.#wire, notification(method), signal);
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    await this.#cancellations.settle(CLOSE_GRACE_MS);
    this.#closed.abort(new ClientClosedError({ url: this.#config.url }));
    this.#inbound.closeAll();
    // A renewal under way ends at once (its deadline follows the close) and starts nothing.
    await this.#renewing?.catch(() => {});
    await this.#listen?.stop();
    await this.#endSession();
  }

  async #sendOnce(operation: Operation, context: SendContext): Promise<Outcome> {
    const id = this.#nextId++;
    const params = context.onProgress
      ? { ...operation.params, _meta: { ...metaOf(operation.params), progressToken: id } }
      : operation.params;
    const message = request(id, operation.method, params);
    const { deadline } = context;
    try {
      const { response } = await withRetry(
        () =>
          exchange(this.#wire, message, {
            deadline,
            idempotent: operation.idempotent,
            tool: operation.tool,
            onProgress: context.onProgress,
          }),
        this.#config.retry,
        {
          idempotent: operation.idempotent,
          deadline,
          refused: (exchanged) => refusedResponse(exchanged.response),
        },
      );
      return this.#outcome(response, operation);
    } catch (error) {
      // Closing a legacy stream does not cancel the request: the server must be told. A call
      // ended by close() needs no word: ending the session stops it.
      const reason = deadline.signal.reason;
      if (deadline.signal.aborted && !this.#closing && !(reason instanceof ClientClosedError))
        this.#cancel(id, reason);
      throw error;
    }
  }

  #outcome(response: JsonRpcResponse, operation: Operation): Outcome {
    const context = { url: this.#config.url, method: operation.method, tool: operation.tool };
    if ('error' in response) {
      return { kind: 'failure', error: fromJsonRpcError(response.error, context) };
    }
    return callOutcome(operation, response.result, context);
  }

  #cancel(requestId: RequestId, reason: unknown): void {
    const text = reason instanceof Error ? reason.message : 'cancelled';
    const deadline = this.#backgroundDeadline('notifications/cancelled');
    this.#cancellations.track(
      deliver(
        this.#wire,
        notification('notifications/cancelled', { requestId, reason: text }),
        deadline.signal,
      )
        .catch((error: unknown) => this.#events.warning(asError(error)))
        .finally(() => deadline[Symbol.dispose]()),
    );
  }

  /**
   * Opens a session in a Wire of its own and swaps it in whole once `notifications/initialized`
   * is through: until then, the session requests go out in is the old one (or none, at first).
   */
  async #initialize(deadline: Deadline): Promise<void> {
    const config = this.#config;
    const handshake = async (version: string) => {
      const wire: Wire = { ...this.#wire, session: new Session(config) };
      const message = request(this.#nextId++, 'initialize', initializeParams(config, version));
      const exchanged = await withRetry(
        () => exchange(wire, message, { deadline, idempotent: true }),
        config.retry,
        { idempotent: true, deadline },
      );
      return { wire, ...exchanged };
    };
    let { wire, response, header, status } = await handshake(config.protocolVersion);
    // A refusal that lists the server's revisions: offer the best one both sides speak, once.
    const common = config.supportedVersions.find((version) =>
      supportedIn(response).includes(version),
    );
    if (common && common !== config.protocolVersion)
      ({ wire, response, header } = await handshake(common));
    const sessionId = header('mcp-session-id');
    try {
      this.server = describeServer(response, config.supportedVersions, config.url, status);
    } catch (error) {
      // The server may have made a session we cannot use: end it before giving up.
      wire.session.start(sessionId, '');
      await this.#endSession(wire.session);
      throw error;
    }
    wire.session.start(sessionId, this.server.protocolVersion);
    await withRetry(
      () => deliver(wire, notification('notifications/initialized'), deadline.signal),
      config.retry,
      { idempotent: true, deadline },
    );
    this.#wire.session = wire.session;
    if (
      config.listen &&
      !this.#closed.signal.aborted &&
      worthListening(this.server.capabilities, config.capabilities)
    ) {
      // The stream belongs to this session: if it finds the session gone after a call has
      // already renewed it, the session it marks lost is no longer the current one.
      this.#listen = new ListenStream(this.#wire, this.#events, () => {
        this.#renew().catch((error: unknown) => this.#events.warning(asError(error)));
      });
      this.#listen.start();
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
      await this.#listen?.stop();
      this.#listen = undefined;
      using deadline = this.#backgroundDeadline('initialize');
      await this.#initialize(deadline);
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

  async #endSession(session = this.#wire.session): Promise<void> {
    if (session.id === undefined || session.lost) return;
    using deadline = new Deadline({
      timeoutMs: CLOSE_GRACE_MS,
      maxTimeoutMs: CLOSE_GRACE_MS,
      context: { url: this.#config.url, method: 'DELETE' },
    });
    try {
      const response = await send(this.#config.dispatcher, {
        url: this.#config.url,
        method: 'DELETE',
        headers: session.headers(ACCEPT_POST),
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
      context: { url: this.#config.url, method },
    });
  }
}
