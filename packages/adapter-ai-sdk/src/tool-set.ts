/**
 * The server's tools as an AI SDK tool set. The client owns freshness (a `list_changed`
 * notification, a subscription or the server's TTL makes its list stale), so building a set is
 * asking the client for its list: cheap while it is fresh, a new listing when it is not.
 */
import {
  type Tool as McpTool,
  providerToolNames,
  setOwn,
  type ToolNameMap,
  ToolNotFoundError,
  type ToolPins,
  type ToolSource,
  toolFingerprint,
} from '@toolwire/client';
import { asSchema, type ToolSet } from 'ai';
import {
  type McpTools,
  type McpToolsOptions,
  type ResolvedOptions,
  resolveOptions,
  type ToolSchemas,
} from './options.ts';
import { toAiTool } from './tool.ts';

/** A tool set that can follow the server's list, and map names back to the server's. */
export interface McpToolSet<
  SCHEMAS extends ToolSchemas = Record<never, never>,
  PREFIX extends string = '',
> extends ToolNameMap {
  /** The tools as of the last listing: pass them to `generateText`, `streamText` or an agent. */
  readonly tools: McpTools<SCHEMAS, PREFIX>;
  /**
   * Asks the client for its tool list (fresh from the cache, or listed again when the server
   * said it changed or its TTL ran out; `force` lists again in any case) and, when the list is
   * a new one, builds new tools. A generation already running keeps the set it was given.
   */
  refresh(options?: { force?: boolean; signal?: AbortSignal }): Promise<McpTools<SCHEMAS, PREFIX>>;
  /** The pins, with `pin`: `pins.fingerprints` to store, `pins.accept()` to trust a change. */
  readonly pins: ToolPins | undefined;
}

/** The client's tools as an AI SDK tool set, with `refresh()` and the name map. */
export async function mcpToolSet<
  const SCHEMAS extends ToolSchemas = Record<never, never>,
  const PREFIX extends string = '',
>(
  client: ToolSource,
  options: McpToolsOptions<SCHEMAS, PREFIX> = {},
): Promise<McpToolSet<SCHEMAS, PREFIX>> {
  const set = new LiveToolSet<SCHEMAS, PREFIX>(client, resolveOptions(options));
  await set.refresh();
  return set;
}

/**
 * The client's tools as an AI SDK tool set: `generateText({ model, tools: await mcpTools(client) })`.
 * Each call reflects the client's current list. `client` may be one server's client or the
 * servers of `createMcpClients`.
 */
export async function mcpTools<
  const SCHEMAS extends ToolSchemas = Record<never, never>,
  const PREFIX extends string = '',
>(
  client: ToolSource,
  options: McpToolsOptions<SCHEMAS, PREFIX> = {},
): Promise<McpTools<SCHEMAS, PREFIX>> {
  return (await mcpToolSet(client, options)).tools;
}

class LiveToolSet<SCHEMAS extends ToolSchemas, PREFIX extends string>
  implements McpToolSet<SCHEMAS, PREFIX>
{
  readonly #client: ToolSource;
  readonly #options: ResolvedOptions;
  #listing: McpTool[] | undefined;
  #building: { listing: McpTool[]; done: Promise<void> } | undefined;
  #tools: ToolSet = {};
  #names: ToolNameMap = providerToolNames([]);

  constructor(client: ToolSource, options: ResolvedOptions) {
    this.#client = client;
    this.#options = options;
  }

  get pins(): ToolPins | undefined {
    return this.#options.pins;
  }

  get tools(): McpTools<SCHEMAS, PREFIX> {
    return this.#tools as McpTools<SCHEMAS, PREFIX>;
  }

  async refresh(
    options: { force?: boolean; signal?: AbortSignal } = {},
  ): Promise<McpTools<SCHEMAS, PREFIX>> {
    const signal = options.signal ?? this.#options.signal;
    const listing = await this.#client.listTools({
      forModel: true,
      refresh: options.force === true,
      ...(signal ? { signal } : {}),
    });
    // The client hands back the same array while its list is fresh: nothing to rebuild.
    if (listing !== this.#listing) {
      if (this.#building?.listing !== listing) {
        this.#building = { listing, done: this.#build(listing) };
      }
      await this.#building.done;
    }
    return this.tools;
  }

  serverName(modelName: string): string | undefined {
    return this.#names.serverName(modelName);
  }

  modelName(serverName: string): string | undefined {
    return this.#names.modelName(serverName);
  }

  async #build(listing: McpTool[]): Promise<void> {
    const { prefix, schemas, pins } = this.#options;
    const offered = listing.map((tool) => tool.name);
    for (const name of Object.keys(schemas)) {
      if (!offered.includes(name)) throw new ToolNotFoundError(offered, { tool: name });
    }
    const chosen = listing.filter((tool) => this.#wanted(tool));
    const names = providerToolNames(
      chosen.map((tool) => tool.name),
      { prefix },
    );
    const tools: ToolSet = {};
    for (const tool of chosen) {
      const name = names.modelName(tool.name)!;
      if (Object.hasOwn(schemas, tool.name) && name !== prefix + tool.name) {
        throw new TypeError(
          `the typed tool "${tool.name}" needs a name providers accept (^[a-zA-Z0-9_-]{1,64}$ with the prefix): type it with another prefix, or leave it dynamic`,
        );
      }
      setOwn(tools, name, toAiTool(this.#client, tool, name, this.#options));
    }
    // A definition that changed since it was pinned is left out before any model sees it.
    if (pins) for (const name of pins.review(await fingerprints(tools))) delete tools[name];
    this.#listing = listing;
    this.#tools = tools;
    this.#names = names;
  }

  #wanted(tool: McpTool): boolean {
    const { include, exclude, filter, schemas } = this.#options;
    if (Object.hasOwn(schemas, tool.name)) return true;
    if (include && !include.has(tool.name)) return false;
    if (exclude.has(tool.name)) return false;
    return filter ? filter(tool) : true;
  }
}

/**
 * Each tool's fingerprint as the AI SDK's `fingerprintTools` computes it: the description and
 * the input schema the model is shown (and the tool's `title`, which ours never set).
 */
async function fingerprints(tools: ToolSet): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.entries(tools).map(async ([name, tool]) => {
      const description = typeof tool.description === 'string' ? tool.description : undefined;
      const inputSchema = await asSchema(tool.inputSchema).jsonSchema;
      return [name, toolFingerprint({ description, inputSchema, title: tool.title })] as const;
    }),
  );
  return Object.fromEntries(entries);
}
