/**
 * The server's tools as an AI SDK tool set. The client owns freshness (a `list_changed`
 * notification, a subscription or the server's TTL makes its list stale), so building a set is
 * asking the client for its list: cheap while it is fresh, a new listing when it is not.
 */
import { type McpClient, type Tool as McpTool, ToolNotFoundError } from '@toolwire/client';
import type { ToolSet } from 'ai';
import { assignNames, NameTable, type ToolNameMap } from './names.ts';
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
}

/** The client's tools as an AI SDK tool set, with `refresh()` and the name map. */
export async function mcpToolSet<
  const SCHEMAS extends ToolSchemas = Record<never, never>,
  const PREFIX extends string = '',
>(
  client: McpClient,
  options: McpToolsOptions<SCHEMAS, PREFIX> = {},
): Promise<McpToolSet<SCHEMAS, PREFIX>> {
  const set = new LiveToolSet<SCHEMAS, PREFIX>(client, resolveOptions(options));
  await set.refresh();
  return set;
}

/**
 * The client's tools as an AI SDK tool set: `generateText({ model, tools: await mcpTools(client) })`.
 * Each call reflects the client's current list.
 */
export async function mcpTools<
  const SCHEMAS extends ToolSchemas = Record<never, never>,
  const PREFIX extends string = '',
>(
  client: McpClient,
  options: McpToolsOptions<SCHEMAS, PREFIX> = {},
): Promise<McpTools<SCHEMAS, PREFIX>> {
  return (await mcpToolSet(client, options)).tools;
}

class LiveToolSet<SCHEMAS extends ToolSchemas, PREFIX extends string>
  implements McpToolSet<SCHEMAS, PREFIX>
{
  readonly #client: McpClient;
  readonly #options: ResolvedOptions;
  #listing: McpTool[] | undefined;
  #tools: ToolSet = {};
  #names = new NameTable();

  constructor(client: McpClient, options: ResolvedOptions) {
    this.#client = client;
    this.#options = options;
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
    if (listing !== this.#listing) this.#build(listing);
    return this.tools;
  }

  serverName(modelName: string): string | undefined {
    return this.#names.serverName(modelName);
  }

  modelName(serverName: string): string | undefined {
    return this.#names.modelName(serverName);
  }

  #build(listing: McpTool[]): void {
    const { prefix, schemas } = this.#options;
    const offered = listing.map((tool) => tool.name);
    for (const name of Object.keys(schemas)) {
      if (!offered.includes(name)) {
        throw new ToolNotFoundError(offered, { url: this.#client.url, tool: name });
      }
    }
    const chosen = listing.filter((tool) => this.#wanted(tool));
    const names = assignNames(
      chosen.map((tool) => tool.name),
      prefix,
    );
    const tools: ToolSet = {};
    for (const tool of chosen) {
      const name = names.modelName(tool.name)!;
      if (tool.name in schemas && name !== prefix + tool.name) {
        throw new TypeError(
          `the typed tool "${tool.name}" needs a name providers accept (^[a-zA-Z0-9_-]{1,64}$ with the prefix): type it with another prefix, or leave it dynamic`,
        );
      }
      tools[name] = toAiTool(this.#client, tool, name, this.#options);
    }
    this.#listing = listing;
    this.#tools = tools;
    this.#names = names;
  }

  #wanted(tool: McpTool): boolean {
    const { include, exclude, filter, schemas } = this.#options;
    if (tool.name in schemas) return true;
    if (include && !include.has(tool.name)) return false;
    if (exclude.has(tool.name)) return false;
    return filter ? filter(tool) : true;
  }
}
