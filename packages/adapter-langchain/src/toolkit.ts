/**
 * The tools of one server as a LangChain toolkit that stays current: when the client learns that
 * the server's tool list changed, the toolkit lists again, and `getTools()` returns the new tools.
 */
import { BaseToolkit } from '@langchain/core/tools';
import type { ToolSource } from '@toolwire/client';
import { type McpToolsOptions, pinsOf } from './options.ts';
import type { McpStructuredTool } from './tool.ts';
import { mcpStructuredTools } from './tools.ts';

export class McpToolkit extends BaseToolkit implements Disposable {
  /** The current tools; replaced (not mutated) on every refresh. */
  tools: McpStructuredTool[] = [];
  readonly #client: ToolSource;
  readonly #options: McpToolsOptions;
  readonly #unsubscribe: () => void;
  #stale = false;
  #refreshing: Promise<McpStructuredTool[]> | undefined;

  private constructor(client: ToolSource, options: McpToolsOptions) {
    super();
    this.#client = client;
    // One ToolPins for every refresh: a definition is pinned when first seen, not at each listing.
    const pins = pinsOf(options.pin);
    this.#options = pins ? { ...options, pin: pins } : options;
    const changed = () => {
      this.#stale = true;
      // Listing again is best effort: a failure leaves the toolkit stale, and refresh() retries.
      this.refresh().catch(() => {});
    };
    // Several servers say which one changed (or came back); one server just says it changed.
    this.#unsubscribe =
      'originOf' in client
        ? client.on('toolsChanged', changed)
        : client.on('toolsChanged', changed);
  }

  /** A toolkit with the server's tools listed. */
  static async create(client: ToolSource, options: McpToolsOptions = {}): Promise<McpToolkit> {
    const toolkit = new McpToolkit(client, options);
    try {
      await toolkit.refresh();
    } catch (error) {
      toolkit[Symbol.dispose]();
      throw error;
    }
    return toolkit;
  }

  override getTools(): McpStructuredTool[] {
    return this.tools;
  }

  /** True from the server's change notification until the new list is in. */
  get stale(): boolean {
    return this.#stale;
  }

  /** Lists the tools again now; concurrent callers share one listing. */
  refresh(): Promise<McpStructuredTool[]> {
    this.#refreshing ??= mcpStructuredTools(this.#client, this.#options)
      .then((tools) => {
        this.tools = tools;
        this.#stale = false;
        return tools;
      })
      .finally(() => {
        this.#refreshing = undefined;
      });
    return this.#refreshing;
  }

  /** Stops following the server's changes. */
  [Symbol.dispose](): void {
    this.#unsubscribe();
  }
}
