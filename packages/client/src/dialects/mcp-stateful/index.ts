/**
 * Stateful MCP over Streamable HTTP: revisions 2025-11-25, 2025-06-18, 2025-03-26 (and the
 * 2024-11-05 version string). `initialize` and `notifications/initialized` open a session; every
 * later request carries its id and the version header the revision asks for; a session the
 * server forgets is renewed once and the request replayed when that is safe.
 */
import { Deadline } from '../../deadline.ts';
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
import { withRetry } from '../../transport/retry.ts';
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
  #renewing: Promise<void> | undefined;
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

  async #send(operation: Operation, context: SendContext): Promise<Outcome> {
    const generation = this.#wire.session.generation;
    try {
      return await this.#sendOnce(operation, context);
    } catch (error) {
      if (!(error instanceof SessionNotFound)) throw error;
      await this.#renew(generation);
      if (!error.replaySafe && !operation.idempotent) {
        throw new SessionExpiredError({
          url: this.#config.url,
          method: operation.method,
          tool: operation.tool,
        });
      }
      try {
        return await this.#sendOnce(operation, context);
      } catch (again) {
        if (again instanceof SessionNotFound) {
          throw new SessionExpiredError({
            url: this.#config.url,
            method: operation.method,
            tool: operation.tool,
            cause: again,
          });
        }
        throw again;
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
    this.#closed.abort(new Error('client closed'));
    this.#inbound.closeAll();
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
        { idempotent: operation.idempotent, deadline },
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

  async #initialize(deadline: Deadline): Promise<void> {
    const config = this.#config;
    const { session } = this.#wire;
    const handshake = async (version: string) => {
      session.reset();
      const message = request(this.#nextId++, 'initialize', initializeParams(config, version));
      return withRetry(
        () => exchange(this.#wire, message, { deadline, idempotent: true }),
        config.retry,
        {
          idempotent: true,
          deadline,
        },
      );
    };
    let { response, header, status } = await handshake(config.protocolVersion);
    // A refusal that lists the server's revisions: offer the best one both sides speak, once.
    const common = config.supportedVersions.find((version) =>
      supportedIn(response).includes(version),
    );
    if (common && common !== config.protocolVersion)
      ({ response, header } = await handshake(common));
    const sessionId = header('mcp-session-id');
    try {
      this.server = describeServer(response, config.supportedVersions, config.url, status);
    } catch (error) {
      // The server may have made a session we cannot use: end it before giving up.
      session.start(sessionId, '');
      await this.#endSession();
      throw error;
    }
    session.start(sessionId, this.server.protocolVersion);
    await deliver(this.#wire, notification('notifications/initialized'), deadline.signal);
    if (config.listen && worthListening(this.server.capabilities, config.capabilities)) {
      // The stream belongs to this session: if it finds the session gone after a call has
      // already renewed it, the generation no longer matches and nothing is renewed twice.
      const generation = session.generation;
      this.#listen = new ListenStream(this.#wire, this.#events, () => {
        this.#renew(generation).catch((error: unknown) => this.#events.warning(asError(error)));
      });
      this.#listen.start();
    }
  }

  /** Starts a new session once, however many calls found the old one gone at the same time. */
  async #renew(generation: number): Promise<void> {
    if (this.#wire.session.generation !== generation) return this.#renewing;
    this.#renewing ??= (async () => {
      await this.#listen?.stop();
      this.#listen = undefined;
      using deadline = this.#backgroundDeadline('initialize');
      await this.#initialize(deadline);
    })().finally(() => {
      this.#renewing = undefined;
    });
    return this.#renewing;
  }

  async #endSession(): Promise<void> {
    const { session } = this.#wire;
    if (session.id === undefined) return;
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
    session.reset();
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
