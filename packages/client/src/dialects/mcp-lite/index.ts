/**
 * The MCP-lite HTTP binding (seed 000, v0.042): stateless, POST only, tools only. Discovery and
 * calls have endpoints of their own; a call is a JSON-RPC `tools/call` whose result says what it
 * is in `_meta.response_type`; an answer may stream as named SSE events. No handshake, sessions,
 * notifications or cancellation exist: aborting a call only stops the wait.
 */
import type { Dispatcher } from 'undici';
import type { Deadline } from '../../deadline.ts';
import {
  fromJsonRpcError,
  HandleExpiredError,
  HttpStatusError,
  JsonRpcError,
  MalformedMessageError,
  NotSupportedError,
} from '../../errors.ts';
import { isObject, type JsonObject, request } from '../../jsonrpc.ts';
import type { Outcome, PendingHandle } from '../../outcome.ts';
import { send } from '../../transport/http.ts';
import { type RetryPolicy, withRetry } from '../../transport/retry.ts';
import type { Tool } from '../../types.ts';
import { readAnswer } from '../answer.ts';
import type {
  Dialect,
  DialectEvents,
  Operation,
  SendContext,
  ServerDescription,
} from '../dialect.ts';
import { answered } from './elicitation.ts';
import { Endpoints } from './endpoints.ts';
import { isRedeemTool, type Listing, listAt } from './listing.ts';
import { outcomeOf } from './response.ts';
import { readStream } from './stream.ts';

export interface McpLiteConfig {
  url: string;
  dispatcher: Dispatcher;
  headers: Record<string, string>;
  maxResponseBytes: number;
  maxEventSize: number;
  retry: RetryPolicy;
  /** Whether heartbeats and partials restart a call's timeout. */
  resetTimeoutOnProgress: boolean;
}

/** The revision of the seed this dialect implements. */
export const MCP_LITE_VERSION = '0.042';

/** Lists that MCP-lite has nothing for: truthfully empty. */
const EMPTY_LISTS: Record<string, string> = {
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'prompts/list': 'prompts',
};
const NOT_HERE = new Set([404, 405]);
/** The seed's code for a bad parameter: for `redeem`, an unknown or expired token. */
const INVALID_PARAMS = -32602;

export class McpLiteDialect implements Dialect {
  readonly name = 'mcp-lite';
  readonly server: ServerDescription;
  readonly #config: McpLiteConfig;
  readonly #events: DialectEvents;
  readonly #endpoints: Endpoints;
  /** The listing that proved the dialect, handed to the first `tools/list` instead of asking again. */
  #listed: Tool[] | undefined;
  #nextId = 0;

  private constructor(
    config: McpLiteConfig,
    events: DialectEvents,
    endpoints: Endpoints,
    listing: Extract<Listing, { kind: 'tools' }>,
  ) {
    this.#config = config;
    this.#events = events;
    this.#endpoints = endpoints;
    this.#listed = this.#accept(listing);
    this.server = {
      protocolVersion: MCP_LITE_VERSION,
      serverInfo: { name: '', version: '' },
      capabilities: listing.tools.some(isRedeemTool)
        ? { tools: {}, promises: { redeem: 'redeem' } }
        : { tools: {} },
      instructions: undefined,
    };
  }

  /**
   * Lists the tools at `{base}/listtools`, then `{base}/tools`: the dialect, or `misses` saying
   * what each endpoint answered instead. Throws what says nothing about the dialect.
   */
  static async probe(
    config: McpLiteConfig,
    events: DialectEvents,
    deadline: Deadline,
  ): Promise<McpLiteDialect | { misses: string[] }> {
    const endpoints = new Endpoints(config.url);
    const misses: string[] = [];
    for (const url of endpoints.listing) {
      const listing = await listAt(config, url, deadline);
      if (listing.kind === 'tools') return new McpLiteDialect(config, events, endpoints, listing);
      misses.push(listing.summary);
    }
    return { misses };
  }

  async send(operation: Operation, context: SendContext): Promise<Outcome> {
    const where = { url: this.#config.url, method: operation.method, tool: operation.tool };
    switch (operation.method) {
      case 'tools/list':
        return { kind: 'complete', result: { tools: await this.#tools(context.deadline) } };
      case 'tools/call':
        return this.#call(operation, context);
    }
    const key = EMPTY_LISTS[operation.method];
    if (key) return { kind: 'complete', result: { [key]: [] } };
    return { kind: 'failure', error: new NotSupportedError(this.name, where) };
  }

  /** Redeems a promise token: the final answer, or another promise to wait on. */
  async poll(handle: PendingHandle, context: SendContext): Promise<Outcome> {
    const promises = this.server.capabilities['promises'];
    const redeem =
      isObject(promises) && typeof promises['redeem'] === 'string' ? promises['redeem'] : 'redeem';
    const outcome = await this.#call(
      {
        method: 'tools/call',
        params: { name: redeem, arguments: { promise: handle.id } },
        // Redeeming may use the token up: a redeem the server may have seen is not sent again.
        idempotent: false,
        tool: redeem,
      },
      context,
    );
    const error = outcome.kind === 'failure' ? outcome.error : undefined;
    if (error instanceof JsonRpcError && error.rpcCode === INVALID_PARAMS) {
      return {
        kind: 'failure',
        error: new HandleExpiredError(handle, {
          url: this.#config.url,
          method: 'tools/call',
          tool: redeem,
          cause: error,
        }),
      };
    }
    return outcome;
  }

  async adapt(operation: Operation): Promise<Operation | undefined> {
    switch (operation.method) {
      // No ping: a listing shows the server answers.
      case 'ping':
        return { method: 'tools/list', idempotent: true };
      // No logging either; there is nothing to set.
      case 'logging/setLevel':
        return undefined;
      default:
        return operation;
    }
  }

  screenTools(tools: Tool[]): Tool[] {
    return tools;
  }

  callsItself(tool: Tool): boolean {
    return isRedeemTool(tool);
  }

  /** No change notifications: a tool list stays good until the caller asks again. */
  freshFor(_result: JsonObject, method: string): number {
    return method === 'tools/list' ? Number.POSITIVE_INFINITY : 0;
  }

  async close(): Promise<void> {}

  async #tools(deadline: Deadline): Promise<Tool[]> {
    const listed = this.#listed;
    this.#listed = undefined;
    if (listed) return listed;
    const misses: string[] = [];
    for (const url of this.#endpoints.listing) {
      const listing = await listAt(this.#config, url, deadline);
      if (listing.kind === 'tools') return this.#accept(listing);
      misses.push(listing.summary);
    }
    throw new MalformedMessageError(`no tool listing (${misses.join('; ')})`, {
      url: this.#config.url,
      method: 'tools/list',
    });
  }

  #accept(listing: Extract<Listing, { kind: 'tools' }>): Tool[] {
    this.#endpoints.listedAt(listing.url);
    for (const item of listing.dropped) {
      this.#events.warning(
        new MalformedMessageError(`tool without a name dropped: ${item}`, {
          url: listing.url,
          method: 'tools/list',
        }),
      );
    }
    return listing.tools;
  }

  async #call(operation: Operation, context: SendContext): Promise<Outcome> {
    let params = operation.params ?? {};
    const answers = answered(params);
    if (answers?.kind === 'declined') return { kind: 'complete', result: answers.result };
    if (answers) params = answers.params;
    const message = request(`call-${this.#nextId++}`, 'tools/call', params);
    const attempt = async (url: string): Promise<Outcome> => {
      const outcome = await withRetry(
        () => this.#post(url, message, operation, context),
        this.#config.retry,
        { idempotent: operation.idempotent, deadline: context.deadline },
      );
      this.#endpoints.calledAt(url);
      // The next round's answers go on top of this round's arguments, so none is lost.
      if (outcome.kind === 'input') {
        outcome.retry = (responses) => ({
          ...operation,
          params: { ...params, inputResponses: responses },
        });
      }
      return outcome;
    };
    const urls = this.#endpoints.calls;
    for (const url of urls.slice(0, -1)) {
      try {
        return await attempt(url);
      } catch (error) {
        // A bare 404 or 405 means no endpoint by this name; the other name is tried.
        if (!(error instanceof HttpStatusError && NOT_HERE.has(error.status ?? 0))) throw error;
      }
    }
    return attempt(urls.at(-1)!);
  }

  async #post(
    url: string,
    message: ReturnType<typeof request>,
    operation: Operation,
    context: SendContext,
  ): Promise<Outcome> {
    const config = this.#config;
    const { deadline } = context;
    const where = { url, method: operation.method, tool: operation.tool };
    const response = await send(config.dispatcher, {
      url,
      method: 'POST',
      headers: {
        ...config.headers,
        // Every call takes a stream: a server that streams sends heartbeats, which keep the
        // call's deadline alive whether or not the caller follows its progress.
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      body: JSON.stringify(message),
      signal: deadline.signal,
    });
    if (response.status === 200 && response.mediaType === 'text/event-stream') {
      const streamed = await readStream(response, {
        where,
        maxEventSize: config.maxEventSize,
        deadline,
        extendOnLife: config.resetTimeoutOnProgress,
        onProgress: context.onProgress,
        onPartial: context.onPartial,
      });
      if (streamed.kind === 'error') return { kind: 'failure', error: streamed.error };
      return outcomeOf(streamed.result, where);
    }
    const answer = await readAnswer(response, message, {
      url,
      tool: operation.tool,
      maxResponseBytes: config.maxResponseBytes,
      signal: deadline.signal,
      route: () => {},
    });
    if ('error' in answer) {
      return {
        kind: 'failure',
        error: fromJsonRpcError(answer.error, { ...where, status: response.status }),
      };
    }
    return outcomeOf(answer.result, where);
  }
}
