/**
 * The legacy revisions (2025-11-25 and before) over a channel that keeps one session per server
 * process (stdio): `initialize` and `notifications/initialized` open it, and the channel opens it
 * again on a process started after a crash. Everything the server says comes on the one pipe and
 * is routed by id: responses to their calls, progress to its call, the server's questions to the
 * same handlers as over HTTP, answered on the pipe. Abandoning a call is
 * `notifications/cancelled`, which the channel sends.
 *
 * Streamable HTTP's session (an id in a header, renewed on 404, resumable streams) is still kept
 * by StatefulDialect (index.ts); the two share the handshake, the routing, the inbound handler
 * and the tasks.
 */
import { Deadline } from '../../deadline.ts';
import { asError, fromJsonRpcError } from '../../errors.ts';
import type { Responder } from '../../handlers/responder.ts';
import { type JsonObject, metaOf, notification, request } from '../../jsonrpc.ts';
import type { Outcome, PendingHandle } from '../../outcome.ts';
import type { Channel } from '../channel.ts';
import type {
  Dialect,
  DialectEvents,
  Operation,
  SendContext,
  ServerDescription,
} from '../dialect.ts';
import { describeServer, initializeParams, supportedIn } from '../handshake.ts';
import { Inbound } from '../inbound.ts';
import { legacyEra } from '../legacy-era.ts';
import { Router } from '../router.ts';
import { callOutcome, taskError, taskState, withTaskRequest } from './tasks.ts';

export interface ChannelSessionConfig {
  clientInfo: JsonObject;
  capabilities: JsonObject;
  /** The revision offered in `initialize`. */
  protocolVersion: string;
  supportedVersions: readonly string[];
  timeoutMs: number;
  maxTimeoutMs: number;
  responder: Responder;
}

export class ChannelSessionDialect implements Dialect {
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
  readonly #config: ChannelSessionConfig;
  readonly #channel: Channel;
  readonly #events: DialectEvents;
  readonly #router: Router;
  readonly #inbound: Inbound;
  readonly #closed = new AbortController();
  #nextId = 0;

  private constructor(config: ChannelSessionConfig, channel: Channel, events: DialectEvents) {
    this.#config = config;
    this.#channel = channel;
    this.#events = events;
    this.#inbound = new Inbound((message) => channel.send(message, this.#closed.signal), events, {
      url: channel.label,
      responder: config.responder,
      timeoutMs: config.timeoutMs,
    });
    this.#router = new Router(events, this.#inbound, channel.label);
    channel.attach((incoming) => this.#router.dispatch(incoming), events);
    channel.keepSession?.((deadline) => this.#initialize(deadline));
  }

  /** Opens the session: `initialize`, then `notifications/initialized`. */
  static async connect(
    config: ChannelSessionConfig,
    channel: Channel,
    events: DialectEvents,
    deadline: Deadline,
  ): Promise<ChannelSessionDialect> {
    const dialect = new ChannelSessionDialect(config, channel, events);
    await channel.openSession?.(deadline);
    return dialect;
  }

  send(operation: Operation, context: SendContext): Promise<Outcome> {
    return this.#send(withTaskRequest(operation, this.server.capabilities), context);
  }

  async poll(handle: PendingHandle, context: SendContext): Promise<Outcome> {
    const got = await this.#taskRequest('tasks/get', handle, context);
    if (got.kind !== 'complete') return got;
    const state = taskState(got.result, handle, { url: this.#channel.label, method: 'tasks/get' });
    return state === 'collect' ? this.#taskRequest('tasks/result', handle, context) : state;
  }

  async cancel(handle: PendingHandle, signal: AbortSignal): Promise<void> {
    using deadline = new Deadline({
      timeoutMs: this.#config.timeoutMs,
      maxTimeoutMs: this.#config.timeoutMs,
      signal: AbortSignal.any([this.#closed.signal, signal]),
      context: { url: this.#channel.label, method: 'tasks/cancel' },
    });
    try {
      await this.#send(
        { method: 'tasks/cancel', params: { taskId: handle.id }, idempotent: true },
        { deadline },
      );
    } catch (error) {
      this.#events.warning(asError(error));
    }
  }

  notify(method: string, signal: AbortSignal): Promise<void> {
    return this.#channel.send(notification(method), signal);
  }

  async close(): Promise<void> {
    if (this.#closed.signal.aborted) return;
    this.#closed.abort(new Error('client closed'));
    this.#inbound.closeAll();
    await this.#channel.close();
  }

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
    const where = { url: this.#channel.label, method };
    return { kind: 'failure', error: taskError(outcome.error, handle, method, where) };
  }

  async #send(operation: Operation, context: SendContext): Promise<Outcome> {
    const id = this.#nextId++;
    const params = context.onProgress
      ? { ...operation.params, _meta: { ...metaOf(operation.params), progressToken: id } }
      : operation.params;
    const { deadline } = context;
    const waiter = this.#router.expect(id, context.onProgress, {
      deadline,
      tool: operation.tool,
    });
    try {
      const response = await this.#channel.request(request(id, operation.method, params), {
        deadline,
        idempotent: operation.idempotent,
        tool: operation.tool,
        version: this.server.protocolVersion,
        onMessage: (incoming) => this.#router.dispatch(incoming, waiter),
      });
      const where = { url: this.#channel.label, method: operation.method, tool: operation.tool };
      if ('error' in response) {
        return { kind: 'failure', error: fromJsonRpcError(response.error, where) };
      }
      return callOutcome(operation, response.result, where);
    } finally {
      this.#router.forget(waiter);
    }
  }

  async #initialize(deadline: Deadline): Promise<void> {
    const config = this.#config;
    const handshake = (version: string) =>
      this.#channel.request(
        request(this.#nextId++, 'initialize', initializeParams(config, version)),
        {
          deadline,
          idempotent: true,
          version,
          handshake: true,
          onMessage: (incoming) => this.#router.dispatch(incoming),
        },
      );
    let response = await handshake(config.protocolVersion);
    // A refusal that lists the server's revisions: offer the best one both sides speak, once.
    const common = config.supportedVersions.find((version) =>
      supportedIn(response).includes(version),
    );
    if (common && common !== config.protocolVersion) response = await handshake(common);
    this.server = describeServer(response, config.supportedVersions, this.#channel.label);
    await this.#channel.send(notification('notifications/initialized'), deadline.signal);
  }
}
