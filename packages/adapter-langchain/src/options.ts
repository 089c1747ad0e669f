/**
 * What `mcpStructuredTools` and `McpToolkit` take, their defaults, and the check that turns a
 * misuse into a TypeError naming the option (rather than a confusing failure at the first call).
 */
import type { ToolRunnableConfig } from '@langchain/core/tools';
import {
  type CallToolResult,
  checkKeys,
  type JsonObject,
  type OptionKeys,
  type Progress,
  type Tool,
  ToolPins,
  type ToolPinsOptions,
} from '@toolwire/client';
import type { ToolException } from './errors.ts';
import { DEFAULT_MAX_RECURSION } from './schema.ts';

/** One call of a tool, as the hooks see it. */
export interface McpToolCall {
  /** The server the tool belongs to (`serverName`). */
  server: string;
  /** The tool as the server describes it; `tool.name` is its name on the server. */
  tool: Tool;
  /** The tool's LangChain name (prefixed, made safe). */
  name: string;
  /** The arguments, already checked against the tool's input schema. */
  arguments: JsonObject;
  /** The RunnableConfig LangChain called the tool with (signal, callbacks, toolCall, ...). */
  config: ToolRunnableConfig | undefined;
}

export interface McpToolsOptions {
  /**
   * The server's name in error messages, artifacts and hooks (one server; with
   * `createMcpClients` each tool's server is named as there).
   * @default the `serverInfo.name` the server gave, else the host of its URL
   */
  serverName?: string;
  /** Only these tools (server names). */
  include?: readonly string[];
  /** Never these tools (server names); applied after `include`. */
  exclude?: readonly string[];
  /** Keep a tool only when this returns true; applied after `include` and `exclude`. */
  filter?: (tool: Tool) => boolean;
  /**
   * Put in front of every tool name, to keep the tools of several servers apart (`'github_'`).
   * @default ''
   */
  prefix?: string;
  /**
   * Make names match `^[a-zA-Z0-9_-]{1,64}$`, which every major provider requires; two names
   * that would collide get a suffix. Each tool keeps its server name in `definition.name`.
   * @default true
   */
  safeNames?: boolean;
  /**
   * What a result with `isError: true` becomes. `false`: a thrown `ToolException` naming server
   * and tool (a ToolNode or `createAgent` gives its message to the model). `true`: the result's
   * own content goes back to the model, in a ToolMessage with `status: 'error'`. A string or a
   * function: that text instead.
   * @default false
   */
  handleToolError?: boolean | string | ((error: ToolException) => string);
  /** Each call's timeout, instead of the client's `timeoutMs`. */
  timeoutMs?: number;
  /**
   * How many times a recursive `$ref` is expanded inside itself in the schema the model sees;
   * deeper levels accept anything there (arguments are still checked against the original).
   * @default 2
   */
  maxRecursion?: number;
  /** Runs before each call; may return other arguments to send. Throwing refuses the call. */
  beforeCall?: (call: McpToolCall) => JsonObject | undefined | Promise<JsonObject | undefined>;
  /** Runs after each call (also for `isError` results); may return another result to use. */
  afterCall?: (
    call: McpToolCall & { result: CallToolResult },
  ) => CallToolResult | undefined | Promise<CallToolResult | undefined>;
  /**
   * Receives the server's progress reports; giving it asks the server for them. Each report is
   * also sent to LangChain's callbacks as the custom event `mcp_progress`.
   */
  onProgress?: (progress: Progress, call: McpToolCall) => void;
  /**
   * Inside a LangGraph run, ask the server for progress and write each report to the graph's
   * stream writer (`getWriter()`), so `streamMode: 'custom'` carries it as `{ type: 'mcp_progress', ... }`.
   * @default true
   */
  streamProgress?: boolean;
  /**
   * Mark tools `extras.defer_loading`, for LangChain's tool-search middleware
   * (`providerToolSearchMiddleware`): all (`true`), the named ones (server names), or as a
   * function decides.
   * @default false
   */
  deferLoading?: boolean | readonly string[] | ((tool: Tool) => boolean);
  /**
   * Where embedded resources and resource links go. `'blocks'`: to the model too, as LangChain's
   * v1 standard blocks (`text-plain`, `image`, `audio`, `video`, `file`), as well as into the
   * artifact. `'artifact'`: into the artifact only, for providers that take only text and images
   * in a tool message.
   * @default 'blocks'
   */
  resources?: 'blocks' | 'artifact';
  /**
   * Pin each tool's definition (name, description, input schema as the model sees it) when first
   * seen, and refuse (leave out) or report a tool whose definition changes: the pinning's options,
   * or a `ToolPins` to share between listings (`McpToolkit` keeps its own across refreshes).
   * Fingerprints are the AI SDK's (`fingerprintTools`).
   * @default false
   */
  pin?: boolean | ToolPins | ToolPinsOptions;
  /**
   * Show the model slimmer definitions (`slimSchema` / `slimDescription` of the client): no
   * `$comment` / `$schema`, one example, no titles that repeat names, no default stated twice,
   * one-branch `anyOf` / `allOf` merged, long descriptions cut. Arguments are still checked
   * against the server's full schema.
   * @default false
   */
  slim?: boolean;
}

export interface ResolvedOptions extends Omit<McpToolsOptions, 'deferLoading' | 'pin'> {
  prefix: string;
  safeNames: boolean;
  maxRecursion: number;
  streamProgress: boolean;
  resources: 'blocks' | 'artifact';
  deferLoading: (tool: Tool) => boolean;
  pins: ToolPins | undefined;
  slim: boolean;
}

/** Every key the options take (`signal` is `mcpStructuredTools`'): a typo is a TypeError. */
const OPTION_KEYS = {
  serverName: true,
  include: true,
  exclude: true,
  filter: true,
  prefix: true,
  safeNames: true,
  handleToolError: true,
  timeoutMs: true,
  maxRecursion: true,
  beforeCall: true,
  afterCall: true,
  onProgress: true,
  streamProgress: true,
  deferLoading: true,
  resources: true,
  pin: true,
  slim: true,
  signal: true,
} as const satisfies OptionKeys<McpToolsOptions & { signal?: AbortSignal }>;

export function resolveOptions(options: McpToolsOptions): ResolvedOptions {
  checkKeys(options, OPTION_KEYS);
  for (const key of ['include', 'exclude'] as const) {
    const list = options[key];
    if (list !== undefined && !(Array.isArray(list) && list.every((n) => typeof n === 'string'))) {
      throw new TypeError(`${key} must be an array of tool names`);
    }
  }
  for (const key of ['filter', 'beforeCall', 'afterCall', 'onProgress'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function') {
      throw new TypeError(`${key} must be a function`);
    }
  }
  if (options.prefix !== undefined && typeof options.prefix !== 'string') {
    throw new TypeError('prefix must be a string');
  }
  if (options.serverName !== undefined && typeof options.serverName !== 'string') {
    throw new TypeError('serverName must be a string');
  }
  const handle = options.handleToolError;
  if (handle !== undefined && !['boolean', 'string', 'function'].includes(typeof handle)) {
    throw new TypeError('handleToolError must be a boolean, a string or a function');
  }
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) {
    throw new TypeError('timeoutMs must be a positive number');
  }
  if (options.slim !== undefined && typeof options.slim !== 'boolean') {
    throw new TypeError('slim must be a boolean');
  }
  const maxRecursion = options.maxRecursion ?? DEFAULT_MAX_RECURSION;
  if (!Number.isInteger(maxRecursion) || maxRecursion < 0) {
    throw new TypeError('maxRecursion must be a non-negative integer');
  }
  const { resources = 'blocks' } = options;
  if (resources !== 'blocks' && resources !== 'artifact') {
    throw new TypeError("resources must be 'blocks' or 'artifact'");
  }
  return {
    ...options,
    prefix: options.prefix ?? '',
    safeNames: options.safeNames ?? true,
    maxRecursion,
    streamProgress: options.streamProgress ?? true,
    resources,
    deferLoading: deferRule(options.deferLoading),
    pins: pinsOf(options.pin),
    slim: options.slim === true,
  };
}

function deferRule(value: McpToolsOptions['deferLoading']): (tool: Tool) => boolean {
  if (value === undefined || typeof value === 'boolean') return () => value === true;
  if (typeof value === 'function') return value;
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
    throw new TypeError('deferLoading must be a boolean, an array of tool names or a function');
  }
  const deferred = new Set(value);
  return (tool) => deferred.has(tool.name);
}

/** The pins: a ToolPins given (shared), one made from its options, or none. */
export function pinsOf(pin: McpToolsOptions['pin']): ToolPins | undefined {
  if (pin === undefined || pin === false) return undefined;
  if (pin === true) return new ToolPins();
  if (typeof pin !== 'object' || pin === null) {
    throw new TypeError('pin must be a boolean, a ToolPins or its options');
  }
  // Duck-typed: a ToolPins from another copy of the client is still one.
  return typeof (pin as Partial<ToolPins>).review === 'function'
    ? (pin as ToolPins)
    : new ToolPins(pin as ToolPinsOptions);
}

/** The tools the options keep, in the server's order. */
export function selectTools(
  tools: readonly Tool[],
  options: Pick<McpToolsOptions, 'include' | 'exclude' | 'filter'>,
): Tool[] {
  return tools.filter(
    (tool) =>
      (options.include === undefined || options.include.includes(tool.name)) &&
      !options.exclude?.includes(tool.name) &&
      (options.filter === undefined || options.filter(tool)),
  );
}
