import type { Deadline } from '../../core/deadline.ts';
import {
  MalformedMessageError,
  NotSupportedError,
  UnsupportedServerError,
} from '../../core/errors.ts';
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';
import type { Outcome, PendingHandle, PollOutcome } from '../../core/outcome.ts';
import type { Tool } from '../../core/types.ts';
import { aboutDeferred } from '../../core/wire-codes.ts';
import type { ChannelEvents } from '../../wire/channels/channel.ts';
import { withRetry } from '../../wire/transport/retry.ts';
import type { Dialect, Operation, SendContext, ServerDescription } from '../dialect.ts';
import type { BindingListing, LiteBinding, McpLiteConfig } from './binding.ts';
import { answered } from './elicitation.ts';
import { HttpBinding } from './http/binding.ts';
import { isRedeemTool } from './listing.ts';
import { Partials } from './partials.ts';
import { outcomeOf } from './response.ts';

/** The revision of the seed this dialect implements. */
export const MCP_LITE_VERSION = '0.042';

/** Lists that MCP-lite has nothing for: truthfully empty. */
const EMPTY_LISTS: Record<string, string> = {
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'prompts/list': 'prompts',
};

type Listed = Extract<BindingListing, { kind: 'tools' }>;

export class McpLiteDialect implements Dialect {
  readonly name = 'mcp-lite';
  readonly server: ServerDescription;
  readonly #config: McpLiteConfig;
  readonly #events: ChannelEvents;
  readonly #binding: LiteBinding;
  /** The listing that proved the dialect, handed to the first `tools/list` instead of asking again. */
  #listed: Tool[] | undefined;
  /** Redeems that asked a question, by promise token: how to send the answers back. */
  readonly #asked = new Map<string, (responses: Record<string, JsonObject>) => Operation>();

  private constructor(
    config: McpLiteConfig,
    events: ChannelEvents,
    binding: LiteBinding,
    listing: Listed,
  ) {
    this.#config = config;
    this.#events = events;
    this.#binding = binding;
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
   * Lists the tools over HTTP at `{base}/listtools`, then `{base}/tools`: the dialect, or `misses`
   * saying what each endpoint answered instead. Throws what says nothing about the dialect.
   */
  static async probe(
    config: McpLiteConfig,
    events: ChannelEvents,
    deadline: Deadline,
  ): Promise<McpLiteDialect | { misses: string[] }> {
    const binding = new HttpBinding(config);
    const listing = await list(binding, config, deadline);
    if (listing.kind === 'misses') return listing;
    return new McpLiteDialect(config, events, binding, listing);
  }

  /**
   * The gRPC binding at a grpc:// or grpcs:// URL: nothing to probe, the listing is the first
   * request. The gRPC stack is loaded here, so HTTP users never pay for it.
   */
  static async overGrpc(
    config: McpLiteConfig,
    events: ChannelEvents,
    deadline: Deadline,
  ): Promise<McpLiteDialect> {
    const { GrpcBinding } = await import('./grpc/binding.ts');
    const binding = new GrpcBinding(config);
    try {
      const listing = await list(binding, config, deadline);
      if (listing.kind === 'misses') {
        throw new UnsupportedServerError(listing.misses, { url: config.url });
      }
      return new McpLiteDialect(config, events, binding, listing);
    } catch (error) {
      await binding.close();
      throw error;
    }
  }

  send<T>(
    operation: Operation,
    context: SendContext,
    read: (outcome: Outcome) => T | Promise<T>,
  ): Promise<T> {
    return this.#send(operation, context).then(read);
  }

  async #send(operation: Operation, context: SendContext): Promise<Outcome> {
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

  /**
   * Redeems a promise token: the final answer, another promise to wait on, or a question the
   * server asks before it answers (an `elicitation`), which waits, `input_required`, for
   * `provide`.
   */
  poll(handle: PendingHandle, context: SendContext): Promise<PollOutcome> {
    const name = this.#redeemTool();
    return this.#redeem(
      handle,
      {
        method: 'tools/call',
        params: { name, arguments: { promise: handle.id } },
        // Redeeming may use the token up: a redeem the server may have seen is not sent again.
        idempotent: false,
        tool: name,
      },
      context,
    );
  }

  /**
   * The answers to what a redeem asked go back as that redeem again, the answers with it (as for
   * any call, see elicitation.ts); its answer is the next step of the wait.
   */
  provide(
    handle: PendingHandle,
    responses: Record<string, JsonObject>,
    context: SendContext,
  ): Promise<PollOutcome> {
    const retry = this.#asked.get(handle.id);
    const name = this.#redeemTool();
    const operation = retry?.(responses) ?? {
      method: 'tools/call',
      params: { name, arguments: { promise: handle.id }, inputResponses: responses },
      idempotent: false,
      tool: name,
    };
    return this.#redeem(handle, operation, context);
  }

  #redeemTool(): string {
    const promises = this.server.capabilities['promises'];
    return isObject(promises) && typeof promises['redeem'] === 'string'
      ? promises['redeem']
      : 'redeem';
  }

  /** One redeem: a question is kept, with how to answer it, until `provide` answers it. */
  async #redeem(
    handle: PendingHandle,
    operation: Operation,
    context: SendContext,
  ): Promise<PollOutcome> {
    const outcome = await this.#call(operation, context);
    this.#asked.delete(handle.id);
    if (outcome.kind === 'input') {
      if (outcome.retry) this.#asked.set(handle.id, outcome.retry);
      return { kind: 'pending', handle, status: 'input_required', questions: outcome.questions };
    }
    if (outcome.kind !== 'failure') return outcome;
    const where = { url: this.#config.url, method: 'tools/call', tool: operation.tool };
    return { kind: 'failure', error: aboutDeferred(outcome.error, handle, where) };
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

  close(): Promise<void> {
    return this.#binding.close();
  }

  async #tools(deadline: Deadline): Promise<Tool[]> {
    const listed = this.#listed;
    this.#listed = undefined;
    if (listed) return listed;
    const listing = await list(this.#binding, this.#config, deadline);
    if (listing.kind === 'tools') return this.#accept(listing);
    throw new MalformedMessageError(`no tool listing (${listing.misses.join('; ')})`, {
      url: this.#config.url,
      method: 'tools/list',
    });
  }

  #accept(listing: Listed): Tool[] {
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
    const { deadline } = context;
    // The caller follows the call: each partial is reported as it comes. Over gRPC that picks
    // CallToolStream; over HTTP every call takes a stream, whichever the server sends.
    const stream = context.onProgress !== undefined || context.onPartial !== undefined;
    const answer = await withRetry(
      () =>
        this.#binding.call({
          params,
          tool: operation.tool,
          deadline,
          stream,
          partials: new Partials({
            deadline,
            extendOnLife: this.#config.resetTimeoutOnProgress,
            onProgress: context.onProgress,
            onPartial: context.onPartial,
          }),
        }),
      this.#config.retry,
      { idempotent: operation.idempotent, deadline },
    );
    if (answer.kind === 'error') return { kind: 'failure', error: answer.error };
    const outcome = outcomeOf(answer.result, {
      url: answer.url,
      method: operation.method,
      tool: operation.tool,
    });
    // The next round's answers go on top of this round's arguments, so none is lost.
    if (outcome.kind === 'input') {
      outcome.retry = (responses) => ({
        ...operation,
        params: { ...params, inputResponses: responses },
      });
    }
    return outcome;
  }
}

/** One listing, sent again as the retry policy allows (a listing may always be). */
function list(
  binding: LiteBinding,
  config: McpLiteConfig,
  deadline: Deadline,
): Promise<BindingListing> {
  return withRetry(() => binding.list(deadline), config.retry, { idempotent: true, deadline });
}
