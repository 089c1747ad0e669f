/**
 * What `mcpTools` takes, checked once: a misspelt option is a TypeError that says what was
 * expected, not a tool set that quietly ignores it.
 */
import type {
  CallToolResult,
  JsonObject,
  Tool as McpTool,
  Progress,
  ResourceLink,
} from '@toolwire/client';
import type { FlexibleSchema, InferSchema, Tool, ToolSet } from 'ai';

/** One call of a tool, as the hooks see it. */
export interface McpToolCall {
  /** The server's definition of the tool (its `name` is the server's name). */
  tool: McpTool;
  /** The name the model called it by (prefixed, made safe). */
  name: string;
  /** The AI SDK's id of this tool call. */
  toolCallId: string;
  /** The arguments, already checked against the tool's input schema. */
  arguments: JsonObject;
}

/** Schemas for a typed tool: the model and your code see these types. */
export interface ToolSchema<INPUT = unknown, OUTPUT = unknown> {
  /** Checked by the AI SDK, then against the server's own schema before the call is sent. */
  inputSchema: FlexibleSchema<INPUT>;
  /** When given, a successful result's `structuredContent` must match it (else the call fails). */
  outputSchema?: FlexibleSchema<OUTPUT>;
}

/** Typed tools by their server name. */
export type ToolSchemas = Record<string, ToolSchema>;

/** What a tool's `execute` returns: the server's result, `structuredContent` typed when known. */
export type McpToolResult<STRUCTURED = unknown> = Omit<CallToolResult, 'structuredContent'> & {
  structuredContent?: STRUCTURED;
};

type StructuredOf<S> = S extends { outputSchema: infer O } ? InferSchema<O> : unknown;

/** The typed tools a `schemas` option adds, under their model names. */
export type TypedTools<SCHEMAS extends ToolSchemas, PREFIX extends string> = {
  [K in keyof SCHEMAS & string as `${PREFIX}${K}`]: Tool<
    InferSchema<SCHEMAS[K]['inputSchema']>,
    McpToolResult<StructuredOf<SCHEMAS[K]>>
  >;
};

/** The tool set `mcpTools` resolves to: dynamic tools, plus the typed ones you described. */
export type McpTools<
  SCHEMAS extends ToolSchemas = Record<never, never>,
  PREFIX extends string = '',
> = ToolSet & TypedTools<SCHEMAS, PREFIX>;

export interface McpToolsOptions<
  SCHEMAS extends ToolSchemas = Record<never, never>,
  PREFIX extends string = '',
> {
  /** Only these tools (server names). Typed tools are always included. */
  include?: readonly string[];
  /** Never these tools (server names). */
  exclude?: readonly string[];
  /** Keeps the tools for which it returns true, after `include` and `exclude`. */
  filter?: (tool: McpTool) => boolean;
  /**
   * Put before every model name, so that tools of several servers can share one tool set:
   * `{ ...(await mcpTools(github, { prefix: 'github_' })), ...(await mcpTools(jira, { prefix: 'jira_' })) }`.
   * @default ''
   */
  prefix?: PREFIX;
  /** Tools to type with your own schemas (zod or any schema the AI SDK takes), by server name. */
  schemas?: SCHEMAS;
  /**
   * Which calls wait for the user's approval (the AI SDK's tool approval flow): all (`true`),
   * none (`false`), those the server does not mark read-only or non-destructive (`'destructive'`,
   * the spec's defaults for `readOnlyHint` and `destructiveHint`), or as a function decides.
   * `toolApproval` on `generateText` / `streamText` overrides it.
   * @default false
   */
  needsApproval?: boolean | 'destructive' | ((tool: McpTool) => boolean);
  /**
   * Read resource links in results with `resources/read` and give the model their contents too,
   * for every link (`true`) or those the function picks.
   * @default false
   */
  readResourceLinks?: boolean | ((link: ResourceLink, call: McpToolCall) => boolean);
  /**
   * A result with `isError: true` goes back to the model as an error output it can react to
   * (`'output'`), or is thrown as a `ToolResultError` (`'throw'`; the AI SDK then records a
   * tool error).
   * @default 'output'
   */
  toolErrors?: 'output' | 'throw';
  /**
   * Runs before each call; returning arguments replaces them. Throwing stops the call: the server
   * never sees it, and the model sees the error.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing is the usual case
  beforeCall?: (call: McpToolCall) => void | JsonObject | Promise<void | JsonObject>;
  /** Runs after each call, before `toolErrors` applies; returning a result replaces it. */
  afterCall?: (
    call: McpToolCall & { result: CallToolResult },
    // biome-ignore lint/suspicious/noConfusingVoidType: as above
  ) => void | CallToolResult | Promise<void | CallToolResult>;
  /** The server's progress reports; asking for them is what makes the server send them. */
  onProgress?: (progress: Progress, call: McpToolCall) => void;
  /** Each call's timeout, instead of the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Stops the tool listing `mcpTools` (or `refresh()`) waits for. */
  signal?: AbortSignal;
}

export interface ResolvedOptions {
  include: ReadonlySet<string> | undefined;
  exclude: ReadonlySet<string>;
  filter: ((tool: McpTool) => boolean) | undefined;
  prefix: string;
  schemas: ToolSchemas;
  needsApproval: (tool: McpTool) => boolean;
  readResourceLinks: ((link: ResourceLink, call: McpToolCall) => boolean) | undefined;
  toolErrors: 'output' | 'throw';
  beforeCall: McpToolsOptions['beforeCall'];
  afterCall: McpToolsOptions['afterCall'];
  onProgress: McpToolsOptions['onProgress'];
  timeoutMs: number | undefined;
  signal: AbortSignal | undefined;
}

export function resolveOptions(options: McpToolsOptions<ToolSchemas, string>): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('expected the options of mcpTools to be an object');
  }
  const { needsApproval = false, readResourceLinks = false, toolErrors = 'output' } = options;
  if (toolErrors !== 'output' && toolErrors !== 'throw') {
    throw new TypeError(
      `expected \`toolErrors\` to be 'output' or 'throw', got ${String(toolErrors)}`,
    );
  }
  if (
    typeof needsApproval !== 'boolean' &&
    typeof needsApproval !== 'function' &&
    needsApproval !== 'destructive'
  ) {
    throw new TypeError("expected `needsApproval` to be a boolean, 'destructive' or a function");
  }
  if (options.prefix !== undefined && typeof options.prefix !== 'string') {
    throw new TypeError('expected `prefix` to be a string');
  }
  if (
    options.timeoutMs !== undefined &&
    !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)
  ) {
    throw new TypeError('expected `timeoutMs` to be a positive number');
  }
  return {
    include: options.include && new Set(names('include', options.include)),
    exclude: new Set(names('exclude', options.exclude ?? [])),
    filter: options.filter,
    prefix: options.prefix ?? '',
    schemas: options.schemas ?? {},
    needsApproval: approvalRule(needsApproval),
    readResourceLinks:
      typeof readResourceLinks === 'function'
        ? readResourceLinks
        : readResourceLinks
          ? () => true
          : undefined,
    toolErrors,
    beforeCall: options.beforeCall,
    afterCall: options.afterCall,
    onProgress: options.onProgress,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  };
}

function names(option: string, value: unknown): readonly string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new TypeError(`expected \`${option}\` to be an array of tool names`);
  }
  return value;
}

function approvalRule(
  needsApproval: NonNullable<McpToolsOptions['needsApproval']>,
): (tool: McpTool) => boolean {
  if (typeof needsApproval === 'function') return needsApproval;
  if (needsApproval === 'destructive') return mayDestroy;
  return () => needsApproval;
}

/** The spec's defaults: a tool is not read-only, and is destructive, unless it says otherwise. */
function mayDestroy(tool: McpTool): boolean {
  const hints = tool.annotations ?? {};
  return hints.readOnlyHint !== true && hints.destructiveHint !== false;
}
