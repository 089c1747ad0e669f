/**
 * MCP 2026-07-28: stateless, whatever carries it. No handshake; every request carries its
 * version, client info and capabilities in `_meta` (and names the fields a binding may mirror:
 * method, name, marked parameters), and is answered by a result whose `resultType` says what it
 * is. Change notifications come over `subscriptions/listen`.
 */
import { Deadline } from '../../core/deadline.ts';
import {
  type ErrorContext,
  MalformedMessageError,
  UnsupportedVersionError,
} from '../../core/errors.ts';
import {
  type Incoming,
  isObject,
  type JsonObject,
  type JsonRpcFailure,
  type JsonRpcResponse,
  notification,
  type RequestId,
  request,
} from '../../core/jsonrpc.ts';
import {
  asIs,
  malformedResult,
  type Outcome,
  type PendingHandle,
  questionsOf,
} from '../../core/outcome.ts';
import type { Tool } from '../../core/types.ts';
import { aboutDeferred, fromJsonRpcError, RpcCode } from '../../core/wire-codes.ts';
import type {
  Channel,
  ChannelCall,
  ChannelEvents,
  Listening,
} from '../../wire/channels/channel.ts';
import type {
  Dialect,
  Operation,
  PollOutcome,
  Progress,
  SendContext,
  ServerDescription,
} from '../dialect.ts';
import { headerParams, mirroredHeaders } from './headers.ts';
import { META, protocolResult, withoutSubscriptionId } from './meta.ts';
import { createdTask, taskOutcome } from './tasks.ts';

export interface StatelessConfig {
  clientInfo: JsonObject;
  capabilities: JsonObject;
  /** The modern revisions the client speaks, newest first. */
  versions: readonly string[];
  listen: boolean;
  /** Bounds a `tasks/cancel` sent after the call itself has ended. */
  timeoutMs: number;
}

/** Which changes a `subscriptions/listen` asks to hear of. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** Only these methods may answer `input_required` (MRTR). */
const MAY_ASK_FOR_INPUT = new Set(['tools/call', 'prompts/get', 'resources/read']);

export class StatelessDialect implements Dialect {
  readonly name = 'mcp-stateless';
  readonly server: ServerDescription;
  readonly #config: StatelessConfig;
  readonly #channel: Channel;
  readonly #events: ChannelEvents;
  readonly #subscribed = new Set<string>();
  #version: string;
  #logLevel: string | undefined;
  /**
   * The `_meta` of a request that adds nothing of its own, made once for the version and log
   * level in force (nearly every request): frozen, as every such request carries it.
   */
  #plainMeta: JsonObject | undefined;
  #subscription: Listening | undefined;
  #closed = false;
  #nextId = 0;

  /** A dialect for a server whose `server/discover` answer (or pinned revision) is known. */
  constructor(
    config: StatelessConfig,
    channel: Channel,
    events: ChannelEvents,
    version: string,
    discovered: JsonObject | undefined,
  ) {
    this.#config = config;
    this.#channel = channel;
    this.#events = events;
    this.#version = version;
    this.server = describe(version, discovered);
    channel.attach((incoming) => this.#onInbound(incoming), events);
    if (config.listen) void this.#listen();
  }

  send<T>(
    operation: Operation,
    context: SendContext,
    then: (outcome: Outcome) => T | Promise<T>,
  ): Promise<T> {
    // Nearly every answer is in the revision it was asked in: read where it arrives.
    return this.#exchange(operation, context, (response) =>
      refusesVersion(response)
        ? this.#inAnotherVersion(response, operation, context).then(then)
        : then(this.#outcome(response, operation)),
    );
  }

  /**
   * The server speaks a modern revision we also speak: ask again in it, once. It may be the one
   * this request carried: another request switched first, or the server contradicts itself;
   * either way one more try is cheap and a second refusal is final.
   */
  async #inAnotherVersion(
    refusal: JsonRpcResponse,
    operation: Operation,
    context: SendContext,
  ): Promise<Outcome> {
    let response = refusal;
    if (refusesVersion(response)) {
      const next = commonVersion(response.error.data, this.#config.versions);
      if (next) {
        this.#version = next;
        this.#plainMeta = undefined;
        response = await this.#exchange(operation, context, asIs);
      }
      if (refusesVersion(response)) {
        const theirs = isObject(response.error.data) ? response.error.data['supported'] : undefined;
        throw new UnsupportedVersionError(
          Array.isArray(theirs) ? theirs.join(', ') : '(not said)',
          this.#config.versions,
          {
            url: this.#channel.label,
            method: operation.method,
            cause: fromJsonRpcError(response.error, {
              url: this.#channel.label,
              method: operation.method,
            }),
          },
        );
      }
    }
    return this.#outcome(response, operation);
  }

  async poll(handle: PendingHandle, context: SendContext): Promise<PollOutcome> {
    const operation = taskOperation('tasks/get', handle);
    const outcome = await this.send(operation, context, asIs);
    const where = { url: this.#channel.label, method: operation.method };
    if (outcome.kind === 'failure')
      return { kind: 'failure', error: aboutDeferred(outcome.error, handle, where) };
    // tasks/get may not answer input_required: #outcome has made that a failure already.
    if (outcome.kind !== 'complete') return outcome as PollOutcome;
    return taskOutcome(outcome.result, handle, where);
  }

  /** `tasks/update`: the next `tasks/get` says what the task made of the answers. */
  async provide(
    handle: PendingHandle,
    responses: Record<string, JsonObject>,
    context: SendContext,
  ): Promise<undefined> {
    const operation = taskOperation('tasks/update', handle, { inputResponses: responses });
    const outcome = await this.send(operation, context, asIs);
    if (outcome.kind === 'failure') {
      throw aboutDeferred(outcome.error, handle, {
        url: this.#channel.label,
        method: operation.method,
      });
    }
    return undefined;
  }

  async cancel(handle: PendingHandle, signal: AbortSignal): Promise<void> {
    const operation = taskOperation('tasks/cancel', handle);
    using deadline = new Deadline({
      timeoutMs: this.#config.timeoutMs,
      maxTimeoutMs: this.#config.timeoutMs,
      signal,
      context: { url: this.#channel.label, method: operation.method },
    });
    try {
      await this.send(operation, { deadline }, asIs);
    } catch (error) {
      this.#events.warning(error as Error);
    }
  }

  /** Synchronous for every method but the subscriptions: nearly every call is sent as it is. */
  adapt(operation: Operation): Operation | undefined | Promise<Operation | undefined> {
    switch (operation.method) {
      // No ping in this era: asking the server to describe itself shows it answers.
      case 'ping':
        return { method: 'server/discover', idempotent: true };
      // The level travels in each request's _meta instead.
      case 'logging/setLevel':
        this.#logLevel = String(operation.params?.['level']);
        this.#plainMeta = undefined;
        return undefined;
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        return this.#subscribe(operation);
      default:
        return operation;
    }
  }

  async #subscribe(operation: Operation): Promise<undefined> {
    const uri = String(operation.params?.['uri']);
    if (operation.method === 'resources/subscribe') this.#subscribed.add(uri);
    else this.#subscribed.delete(uri);
    if (this.#config.listen) await this.#listen();
    return undefined;
  }

  screenTools(tools: Tool[]): Tool[] {
    return tools.filter((tool) => {
      const marked = isObject(tool.inputSchema) ? headerParams(tool.inputSchema) : [];
      if (typeof marked !== 'string') return true;
      this.#events.warning(
        new MalformedMessageError(`tool "${tool.name}" dropped: ${marked}`, {
          url: this.#channel.label,
          method: 'tools/list',
          tool: tool.name,
        }),
      );
      return false;
    });
  }

  freshFor(result: JsonObject): number {
    const ttl = result['ttlMs'];
    return typeof ttl === 'number' && ttl > 0 ? ttl : 0;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#subscription?.stop();
    await this.#channel.close();
  }

  /** Sends the operation in the revision in force; `then` reads the response. */
  #exchange<T>(
    operation: Operation,
    context: SendContext,
    then: (response: JsonRpcResponse) => T | Promise<T>,
  ): Promise<T> {
    const id = this.#nextId++;
    const own = operation.params?.['_meta'];
    let meta: JsonObject;
    if (isObject(own) || context.onProgress) {
      meta = this.#metaWith(isObject(own) ? own : {}, context.onProgress ? id : undefined);
    } else {
      this.#plainMeta ??= Object.freeze(this.#metaWith({}, undefined));
      meta = this.#plainMeta;
    }
    const message = request(id, operation.method, { ...operation.params, _meta: meta });
    const call: ChannelCall = {
      deadline: context.deadline,
      idempotent: operation.idempotent,
      tool: operation.tool,
      version: this.#version,
      revalidation: operation.revalidation,
      mirror: this.#channel.mirrors
        ? mirroredHeaders(operation.method, operation.params, operation.definition)
        : undefined,
      onMessage: (incoming) => {
        if (incoming.kind === 'notification')
          this.#onNotification(incoming.message, id, context.onProgress);
      },
    };
    return this.#channel.request(message, call, then);
  }

  /** The `_meta` this revision asks of every request, after the request's own. */
  #metaWith(own: JsonObject, progressToken: RequestId | undefined): JsonObject {
    const meta: JsonObject = { ...own };
    meta[META.version] = this.#version;
    meta[META.clientInfo] = this.#config.clientInfo;
    meta[META.capabilities] = this.#config.capabilities;
    if (this.#logLevel) meta[META.logLevel] = this.#logLevel;
    if (progressToken !== undefined) meta['progressToken'] = progressToken;
    return meta;
  }

  /**
   * What belongs to no request (stdio carries it all on one pipe): subscription notifications,
   * log messages. Servers of this revision send no requests.
   */
  #onInbound(incoming: Incoming): void {
    if (incoming.kind !== 'notification') return;
    const { method, params } = incoming.message;
    if (method === 'notifications/subscriptions/acknowledged') return;
    this.#events.notification(notification(method, withoutSubscriptionId(params)));
  }

  /** Notifications on a request's stream belong to that request: progress, and log messages. */
  #onNotification(
    message: { method: string; params?: JsonObject | undefined },
    id: RequestId,
    onProgress?: (progress: Progress) => void,
  ): void {
    const params = message.params;
    if (message.method === 'notifications/progress') {
      if (
        onProgress &&
        params?.['progressToken'] === id &&
        typeof params['progress'] === 'number'
      ) {
        onProgress({
          progress: params['progress'],
          total: typeof params['total'] === 'number' ? params['total'] : undefined,
          message: typeof params['message'] === 'string' ? params['message'] : undefined,
        });
      }
      return;
    }
    this.#events.notification(notification(message.method, params));
  }

  /** Where an answer came from, for its errors: made only for what is not a plain result. */
  #where(operation: Operation): ErrorContext {
    return { url: this.#channel.label, method: operation.method, tool: operation.tool };
  }

  #outcome(response: JsonRpcResponse, operation: Operation): Outcome {
    if ('error' in response)
      return { kind: 'failure', error: fromJsonRpcError(response.error, this.#where(operation)) };
    const result = response.result;
    const kind = result['resultType'];
    if (kind === undefined || kind === 'complete') {
      return { kind: 'complete', result: protocolResult(result) };
    }
    const context = this.#where(operation);
    if (kind === 'input_required' && MAY_ASK_FOR_INPUT.has(operation.method)) {
      const questions = questionsOf(result['inputRequests'] ?? {});
      if (typeof questions === 'string') return malformedResult(questions, result, context);
      const state = result['requestState'];
      return { kind: 'input', questions, state: typeof state === 'string' ? state : undefined };
    }
    if (kind === 'task' && operation.method === 'tools/call') return createdTask(result, context);
    return {
      kind: 'failure',
      error: new MalformedMessageError(
        `resultType "${String(kind)}" is not valid for ${operation.method}`,
        context,
      ),
    };
  }

  /** (Re)opens the listen stream with the current filter; none is kept open for an empty one. */
  async #listen(): Promise<void> {
    await this.#subscription?.stop();
    this.#subscription = undefined;
    // A subscription opened after close() would outlive the client.
    if (this.#closed || Object.keys(this.#filter()).length === 0) return;
    const config = this.#config;
    this.#subscription = this.#channel.listen?.(
      () => ({
        message: request(this.#nextId++, 'subscriptions/listen', {
          notifications: this.#filter() as JsonObject,
          _meta: {
            [META.version]: this.#version,
            [META.clientInfo]: config.clientInfo,
            [META.capabilities]: config.capabilities,
          },
        }),
        version: this.#version,
      }),
      {
        ...this.#events,
        // The listen stream's notifications carry the subscription's id: the client's are plain.
        notification: (message) =>
          this.#events.notification(
            notification(message.method, withoutSubscriptionId(message.params)),
          ),
      },
    );
  }

  /** Asks for every kind of change the server says it announces (all of them when unknown). */
  #filter(): SubscriptionFilter {
    const capabilities = this.server.capabilities;
    const known = Object.keys(capabilities).length > 0;
    const announces = (key: string) =>
      !known || (isObject(capabilities[key]) && capabilities[key]['listChanged'] === true);
    const filter: SubscriptionFilter = {};
    if (announces('tools')) filter.toolsListChanged = true;
    if (announces('prompts')) filter.promptsListChanged = true;
    if (announces('resources')) filter.resourcesListChanged = true;
    if (this.#subscribed.size > 0) filter.resourceSubscriptions = [...this.#subscribed];
    return filter;
  }
}

/** A tasks/* request about `handle`: reading its state is idempotent, and so is cancelling it. */
function taskOperation(method: string, handle: PendingHandle, extra: JsonObject = {}): Operation {
  return { method, params: { taskId: handle.id, ...extra }, idempotent: method !== 'tasks/update' };
}

function refusesVersion(response: JsonRpcResponse): response is JsonRpcFailure {
  return 'error' in response && response.error.code === RpcCode.unsupportedVersion;
}

/** The newest revision both sides speak, from a server's list of supported versions. */
function commonVersion(data: unknown, ours: readonly string[]): string | undefined {
  const supported = isObject(data) && Array.isArray(data['supported']) ? data['supported'] : [];
  return ours.find((version) => supported.includes(version));
}

function describe(version: string, discovered: JsonObject | undefined): ServerDescription {
  const meta = discovered?.['_meta'];
  const reported = isObject(meta) ? meta[META.serverInfo] : undefined;
  const info: JsonObject = isObject(reported) ? reported : {};
  return {
    protocolVersion: version,
    serverInfo: {
      ...info,
      name: String(info['name'] ?? ''),
      version: String(info['version'] ?? ''),
    },
    capabilities: isObject(discovered?.['capabilities']) ? discovered['capabilities'] : {},
    instructions:
      typeof discovered?.['instructions'] === 'string' ? discovered['instructions'] : undefined,
  };
}
