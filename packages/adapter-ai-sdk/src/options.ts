/**
 * What `mcpTools` takes, checked once: a misspelt option is a TypeError that says what was
 * expected, not a tool set that quietly ignores it.
 */
import {
  type CallToolResult,
  checkKeys,
  getOwn,
  type JsonObject,
  type Tool as McpTool,
  nestsTooDeep,
  type OptionKeys,
  type Progress,
  type ResourceLink,
  ToolPins,
  type ToolPinsOptions,
} from '@toolwire/client';
import type { FlexibleSchema, InferSchema, Tool, ToolSet } from 'ai';

/** The AI SDK's provider options of a tool (what `tool({ providerOptions })` takes). */
export type ToolProviderOptions = NonNullable<Tool['providerOptions']>;
/** One input example, as the AI SDK's `inputExamples` takes it. */
export type InputExample = { input: JsonObject };

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

/**
 * What a tool's `execute` returns: the server's result, `structuredContent` typed when known.
 * With `preliminaryResults`, the results before the last are preliminary: the content streamed so
 * far, and the latest `progress`.
 */
export type McpToolResult<STRUCTURED = unknown> = Omit<CallToolResult, 'structuredContent'> & {
  structuredContent?: STRUCTURED;
  /** On a preliminary result only: the server's latest progress report. */
  progress?: Progress;
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
   * Which calls wait for the user's approval, as the tool-level `needsApproval` flag: all
   * (`true`), none (`false`), those the server does not mark read-only or non-destructive
   * (`'destructive'`), or as a function decides. `toolApproval` on `generateText` /
   * `streamText` overrides it.
   * @deprecated AI SDK 7 deprecates the tool-level flag: pass
   * `toolApproval: mcpToolApproval(tools)` to the generation instead. Kept while AI SDK 7 reads it.
   * @default false
   */
  needsApproval?: boolean | 'destructive' | ((tool: McpTool) => boolean);
  /**
   * Keep these tools from the model until the AI SDK's `toolSearch()` finds them (`deferLoading`,
   * for large tool sets): all (`true`), the named ones (server names), or as a function decides.
   * Put `toolSearch()` in the same tool set.
   * @default false
   */
  deferLoading?: boolean | readonly string[] | ((tool: McpTool) => boolean);
  /** The AI SDK's `strict` for each tool (providers that have a strict mode), or per tool. */
  strict?: boolean | ((tool: McpTool) => boolean | undefined);
  /** The AI SDK's `providerOptions` for each tool, or per tool. */
  providerOptions?: ToolProviderOptions | ((tool: McpTool) => ToolProviderOptions | undefined);
  /**
   * The AI SDK's `inputExamples`, by server name or per tool. Without one for a tool, the
   * objects in its input schema's `examples` (JSON Schema's keyword) are used.
   */
  inputExamples?:
    | Readonly<Record<string, readonly InputExample[]>>
    | ((tool: McpTool) => readonly InputExample[] | undefined);
  /**
   * `execute` yields preliminary results (the content the server streamed so far, and its
   * latest progress) before the final one, so `streamText` shows them as they come. Asks the
   * server for progress on every call.
   * @default false
   */
  preliminaryResults?: boolean;
  /**
   * Show the model slimmer definitions (`slimSchema` / `slimDescription` of the client): no
   * `$comment` / `$schema`, one example, no titles that repeat names, no default stated twice,
   * one-branch `anyOf` / `allOf` merged, long descriptions cut. Arguments are still checked
   * against the server's full schema.
   * @default false
   */
  slim?: boolean;
  /**
   * Pin each tool's definition (name, description, input schema) when first seen, and refuse
   * (leave out) or report a tool whose definition changes before a model sees it: `true`, the
   * pinning's options, or a `ToolPins` to share between tool sets or keep across restarts.
   * Fingerprints are the AI SDK's (`fingerprintTools`).
   * @default false
   */
  pin?: boolean | ToolPins | ToolPinsOptions;
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
  deferLoading: (tool: McpTool) => boolean;
  strict: (tool: McpTool) => boolean | undefined;
  providerOptions: (tool: McpTool) => ToolProviderOptions | undefined;
  inputExamples: (tool: McpTool) => readonly InputExample[] | undefined;
  preliminaryResults: boolean;
  slim: boolean;
  pins: ToolPins | undefined;
  readResourceLinks: ((link: ResourceLink, call: McpToolCall) => boolean) | undefined;
  toolErrors: 'output' | 'throw';
  beforeCall: McpToolsOptions['beforeCall'];
  afterCall: McpToolsOptions['afterCall'];
  onProgress: McpToolsOptions['onProgress'];
  timeoutMs: number | undefined;
  signal: AbortSignal | undefined;
}

/**
 * Every key the options take: a typo is a TypeError. `schemas`, `providerOptions` and
 * `inputExamples` are keyed by the user's tool names and providers, so not checked inside.
 */
const OPTION_KEYS = {
  include: true,
  exclude: true,
  filter: true,
  prefix: true,
  schemas: true,
  needsApproval: true,
  deferLoading: true,
  strict: true,
  providerOptions: true,
  inputExamples: true,
  preliminaryResults: true,
  slim: true,
  pin: true,
  readResourceLinks: true,
  toolErrors: true,
  beforeCall: true,
  afterCall: true,
  onProgress: true,
  timeoutMs: true,
  signal: true,
} as const satisfies OptionKeys<McpToolsOptions>;

export function resolveOptions(options: McpToolsOptions<ToolSchemas, string>): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('expected the options of mcpTools to be an object');
  }
  checkKeys(options, OPTION_KEYS);
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
  if (options.slim !== undefined && typeof options.slim !== 'boolean') {
    throw new TypeError('expected `slim` to be a boolean');
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
    deferLoading: deferRule(options.deferLoading),
    strict: perTool('strict', options.strict, 'boolean'),
    providerOptions: perTool('providerOptions', options.providerOptions, 'object'),
    inputExamples: examplesRule(options.inputExamples),
    preliminaryResults: options.preliminaryResults === true,
    slim: options.slim === true,
    pins: pinsOf(options.pin),
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
export function mayDestroy(tool: McpTool): boolean {
  const hints = tool.annotations ?? {};
  return hints.readOnlyHint !== true && hints.destructiveHint !== false;
}

function deferRule(value: McpToolsOptions['deferLoading']): (tool: McpTool) => boolean {
  if (value === undefined || typeof value === 'boolean') return () => value === true;
  if (typeof value === 'function') return value;
  const deferred = new Set(names('deferLoading', value));
  return (tool) => deferred.has(tool.name);
}

/** An option given for every tool, or per tool by a function; `undefined` leaves it unset. */
function perTool<T>(
  option: string,
  value: T | ((tool: McpTool) => T | undefined) | undefined,
  kind: 'boolean' | 'object',
): (tool: McpTool) => T | undefined {
  if (value === undefined) return () => undefined;
  if (typeof value === 'function') return value as (tool: McpTool) => T | undefined;
  if (
    kind === 'boolean' ? typeof value !== 'boolean' : typeof value !== 'object' || value === null
  ) {
    throw new TypeError(
      `expected \`${option}\` to be a${kind === 'object' ? 'n object' : ' boolean'} or a function`,
    );
  }
  return () => value;
}

function examplesRule(
  value: McpToolsOptions['inputExamples'],
): (tool: McpTool) => readonly InputExample[] | undefined {
  if (
    value !== undefined &&
    typeof value !== 'function' &&
    (typeof value !== 'object' || value === null)
  ) {
    throw new TypeError(
      'expected `inputExamples` to be an object of examples by tool name, or a function',
    );
  }
  const given = typeof value === 'function' ? value : (tool: McpTool) => getOwn(value, tool.name);
  return (tool) => given(tool) ?? schemaExamples(tool);
}

/** JSON Schema's `examples` keyword: the objects among them are whole example inputs. */
function schemaExamples(tool: McpTool): readonly InputExample[] | undefined {
  const examples = tool.inputSchema['examples'];
  // Examples nested too deep would break the request that shows them, as a schema would.
  if (!Array.isArray(examples) || nestsTooDeep(examples)) return undefined;
  const inputs = examples.filter(
    (example): example is JsonObject =>
      typeof example === 'object' && example !== null && !Array.isArray(example),
  );
  return inputs.length > 0 ? inputs.map((input) => ({ input })) : undefined;
}

function pinsOf(pin: McpToolsOptions['pin']): ToolPins | undefined {
  if (pin === undefined || pin === false) return undefined;
  if (pin === true) return new ToolPins();
  if (typeof pin !== 'object' || pin === null) {
    throw new TypeError('expected `pin` to be a boolean, a ToolPins or its options');
  }
  // Duck-typed: a ToolPins from another copy of the client is still one.
  return typeof (pin as Partial<ToolPins>).review === 'function'
    ? (pin as ToolPins)
    : new ToolPins(pin as ToolPinsOptions);
}
