/**
 * The legacy revisions (2025-11-25, 2025-06-18, 2025-03-26, and the 2024-11-05 version string)
 * over any channel that keeps a session: Streamable HTTP's (an id in a header, renewed when the
 * server forgets it; wire/channels/http-session/), HTTP+SSE's (the stream is the session) or a server
 * process's (stdio, opened again on a process started after a crash). `initialize` and `notifications/initialized` open the session,
 * through the channel, whenever it needs one. Everything the server says is routed by id,
 * whichever stream or pipe it came on: responses to their calls, progress to its call, the
 * server's questions to the `ask` the dialect is given, answered through the channel.
 */

import { asError } from '../../core/call-boundary.ts';
import { Deadline } from '../../core/deadline.ts';
import { ClientClosedError } from '../../core/errors.ts';
import { isObject, type JsonObject, metaOf, notification, request } from '../../core/jsonrpc.ts';
import type { Outcome, PendingHandle, PollOutcome } from '../../core/outcome.ts';
import { asIs } from '../../core/outcome.ts';
import { fromJsonRpcError } from '../../core/wire-codes.ts';
import type {
  Channel,
  ChannelEvents,
  SessionOpening,
  Waiter,
} from '../../wire/channels/channel.ts';
import { Router } from '../../wire/channels/router.ts';
import type { Ask, Dialect, Operation, SendContext, ServerDescription } from '../dialect.ts';
import { describeServer, initializeParams, supportedIn } from '../handshake.ts';
import { Inbound } from '../inbound.ts';
import { legacyEra } from '../legacy-era.ts';
import { callOutcome, taskError, taskState, withTaskRequest } from './tasks.ts';

export interface StatefulConfig {
  /** How the client names what it speaks: HTTP+SSE is this dialect under another name. */
  name?: 'mcp-stateful' | 'mcp-sse' | undefined;
  clientInfo: JsonObject;
  capabilities: JsonObject;
  /** The revision offered in `initialize`. */
  protocolVersion: string;
  supportedVersions: readonly string[];
  /** Whether a stream for what belongs to no request may be kept open (the `listen` option). */
  listen: boolean;
  timeoutMs: number;
  maxTimeoutMs: number;
  /** Answers the server's questions (the application's handlers, above the dialects). */
  ask: Ask;
}

/**
 * Whether anything can come outside a request's answer: a change the server announces
 * (`listChanged`, `subscribe`), its log messages or tasks, or a question the client declared it
 * answers. A server with none of these (MiniMCP's JSON transport, say) is not asked for a stream
 * it would refuse.
 */
export function worthListening(server: JsonObject, client: JsonObject): boolean {
  const announces = (key: string, flag: string) => {
    const capability = server[key];
    return isObject(capability) && capability[flag] === true;
  };
  return (
    announces('tools', 'listChanged') ||
    announces('prompts', 'listChanged') ||
    announces('resources', 'listChanged') ||
    announces('resources', 'subscribe') ||
    'logging' in server ||
    'tasks' in server ||
    'elicitation' in client ||
    'sampling' in client ||
    'roots' in client
  );
}

export class StatefulDialect implements Dialect {
  readonly name: string;
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
  readonly #channel: Channel;
  readonly #events: ChannelEvents;
  readonly #router: Router;
  readonly #inbound: Inbound;
  readonly #closed = new AbortController();
  #nextId = 0;

  private constructor(config: StatefulConfig, channel: Channel, events: ChannelEvents) {
    this.name = config.name ?? 'mcp-stateful';
    this.#config = config;
    this.#channel = channel;
    this.#events = events;
    this.#inbound = new Inbound((message) => channel.send(message, this.#closed.signal), events, {
      url: channel.label,
      ask: config.ask,
      timeoutMs: config.timeoutMs,
    });
    this.#router = new Router(events, this.#inbound, channel.label);
    channel.attach((incoming) => this.#router.dispatch(incoming), events);
    channel.keepSession?.((deadline, opening) => this.#initialize(deadline, opening));
  }

  /** Opens the session: `initialize`, then `notifications/initialized`. */
  static async connect(
    config: StatefulConfig,
    channel: Channel,
    events: ChannelEvents,
    deadline: Deadline,
  ): Promise<StatefulDialect> {
    const dialect = new StatefulDialect(config, channel, events);
    await channel.openSession?.(deadline);
    return dialect;
  }

  send<T>(
    operation: Operation,
    context: SendContext,
    read: (outcome: Outcome) => T | Promise<T>,
  ): Promise<T> {
    return this.#send(withTaskRequest(operation, this.server.capabilities), context).then(read);
  }

  async poll(handle: PendingHandle, context: SendContext): Promise<PollOutcome> {
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
      // A task that has already ended answers -32602: nothing is left to stop.
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
    this.#closed.abort(new ClientClosedError({ url: this.#channel.label }));
    this.#inbound.closeAll();
    // The channel lets cancellations on their way arrive, then ends the session.
    await this.#channel.close();
  }

  /** A tasks/* request; its failures said in terms of the task. */
  async #taskRequest(
    method: string,
    handle: PendingHandle,
    context: SendContext,
  ): Promise<PollOutcome> {
    const outcome = await this.#send(
      { method, params: { taskId: handle.id }, idempotent: true },
      context,
    );
    if (outcome.kind !== 'failure') return outcome;
    const where = { url: this.#channel.label, method };
    return { kind: 'failure', error: taskError(outcome.error, handle, method, where) };
  }

  async #send(operation: Operation, context: SendContext): Promise<PollOutcome> {
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
      const sent = this.#channel.request(
        request(id, operation.method, params),
        {
          deadline,
          idempotent: operation.idempotent,
          tool: operation.tool,
          version: this.server.protocolVersion,
          waiter,
          revalidation: operation.revalidation,
          onMessage: (incoming) => this.#router.dispatch(incoming, waiter),
        },
        asIs,
      );
      const response = await answeredOrFailed(sent, waiter);
      const where = { url: this.#channel.label, method: operation.method, tool: operation.tool };
      if ('error' in response) {
        return { kind: 'failure', error: fromJsonRpcError(response.error, where) };
      }
      return callOutcome(operation, response.result, where);
    } finally {
      this.#router.forget(waiter);
    }
  }

  /** The handshake, in the session the channel is opening (the first, or a renewal). */
  async #initialize(deadline: Deadline, opening: SessionOpening): Promise<void> {
    const config = this.#config;
    const handshake = async (version: string) => {
      const id = this.#nextId++;
      const waiter = this.#router.expect(id, undefined, { deadline });
      try {
        const sent = opening.request(request(id, 'initialize', initializeParams(config, version)), {
          deadline,
          idempotent: true,
          version,
          waiter,
          onMessage: (incoming) => this.#router.dispatch(incoming, waiter),
        });
        const answered = answeredOrFailed(sent, waiter);
        // A question the handshake could not answer ends the connection attempt, and the request
        // it leaves behind: no call owns this deadline to end it afterwards.
        const fail = waiter.fail!;
        waiter.fail = (error) => {
          fail(error);
          deadline.abort(error);
        };
        return await answered;
      } finally {
        this.#router.forget(waiter);
      }
    };
    let { response, status } = await handshake(config.protocolVersion);
    // A refusal that lists the server's revisions: offer the best one both sides speak, once.
    const common = config.supportedVersions.find((version) =>
      supportedIn(response).includes(version),
    );
    if (common && common !== config.protocolVersion)
      ({ response, status } = await handshake(common));
    this.server = describeServer(response, config.supportedVersions, this.#channel.label, status);
    opening.opened(this.server.protocolVersion, {
      stream: config.listen && worthListening(this.server.capabilities, config.capabilities),
    });
    await opening.send(notification('notifications/initialized'), deadline);
  }
}

/**
 * The channel's answer to a request, or the error of a question the server asked on its stream
 * that the client could not answer (`waiter.fail`): the call ends with that error at once. The
 * request left behind is abandoned when the call's owner ends its deadline.
 */
function answeredOrFailed<T>(sent: Promise<T>, waiter: Waiter): Promise<T> {
  // One promise settled by whichever comes first: half what Promise.race costs, on every call.
  return new Promise<T>((resolve, reject) => {
    waiter.fail = reject;
    sent.then(resolve, reject);
  });
}
