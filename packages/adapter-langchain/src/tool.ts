/**
 * One server tool as a LangChain StructuredTool. The model sees the server's JSON Schema (local
 * `$ref`s inlined, nothing flattened); arguments are checked against the original schema before
 * anything is sent; the call carries LangChain's abort signal to the server; the result comes
 * back as `content_and_artifact`.
 */
import {
  type CallbackManagerForToolRun,
  parseCallbackConfigArg,
} from '@langchain/core/callbacks/manager';
import { ToolMessage } from '@langchain/core/messages';
import { patchConfig, pickRunnableConfigKeys } from '@langchain/core/runnables';
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import {
  StructuredTool,
  type StructuredToolCallInput,
  ToolInputParsingException,
  type ToolReturnType,
  type ToolRunnableConfig,
} from '@langchain/core/tools';
import type { JSONSchema } from '@langchain/core/utils/json_schema';
import {
  argumentProblems,
  type CallToolOptions,
  type CallToolResult,
  type JsonObject,
  type JsonSchema,
  nestsTooDeep,
  openSchema,
  type Progress,
  slimDescription,
  slimSchema,
  type Tool,
  type ToolSource,
} from '@toolwire/client';
import { type McpArtifact, type ModelContent, toContentAndArtifact } from './content.ts';
import { errorText, ToolException } from './errors.ts';
import type { McpToolCall, ResolvedOptions } from './options.ts';
import { inlineRefs } from './schema.ts';

/**
 * What `_call` gives LangChain: the model's content (or an error ToolMessage) and the artifact.
 * LangChain turns it into a ToolMessage when the tool is invoked with a tool call, and returns
 * the content alone otherwise; hence `unknown` as the tool's output type.
 */
export type McpToolOutput = [ModelContent | ToolMessage, McpArtifact];

export class McpStructuredTool extends StructuredTool<JSONSchema, unknown, unknown, unknown> {
  static override lc_name(): string {
    return 'McpStructuredTool';
  }

  name: string;
  description: string;
  /** The server's input schema with local `$ref`s inlined: what the model is shown. */
  schema: JSONSchema;
  /** The tool as the server describes it; `definition.name` is its name on the server. */
  readonly definition: Tool;
  /** The server the tool belongs to. */
  readonly server: string;
  readonly #client: ToolSource;
  readonly #options: ResolvedOptions;
  /** The schema as inlined at construction: the fallback check, whatever `schema` becomes. */
  readonly #inlined: JsonSchema;
  /** The tool's name on its own server (with several servers, `definition.name` is qualified). */
  readonly #serverTool: string;

  constructor(
    client: ToolSource,
    definition: Tool,
    fields: { name: string; server: string; tool?: string; options: ResolvedOptions },
  ) {
    const mcp = {
      server: fields.server,
      tool: fields.tool ?? definition.name,
      ...(definition.ui ? { ui: definition.ui } : {}),
    };
    super({
      responseFormat: 'content_and_artifact',
      verboseParsingErrors: true,
      metadata: { mcp },
      // LangChain's tool-search middleware reads this mark (providerToolSearchMiddleware).
      ...(fields.options.deferLoading(definition) ? { extras: { defer_loading: true } } : {}),
    });
    let inlined = nestsTooDeep(definition.inputSchema)
      ? openSchema()
      : inlineRefs(definition.inputSchema, fields.options.maxRecursion);
    // Inlining may nest a schema deeper than it was.
    if (nestsTooDeep(inlined)) inlined = openSchema();
    this.name = fields.name;
    const description = definition.description ?? definition.title ?? definition.name;
    const { slim } = fields.options;
    this.description = slim ? slimDescription(description) : description;
    // Slimmed after inlining, so a `$ref` to a one-branch `anyOf` flattens too; `#inlined` (the
    // fallback check) and the server's schema stay whole.
    this.schema = (slim ? slimSchema(inlined, definition.name) : inlined) as JSONSchema;
    this.definition = definition;
    this.server = fields.server;
    this.#client = client;
    this.#options = fields.options;
    this.#inlined = inlined;
    this.#serverTool = mcp.tool;
  }

  /**
   * Checks the arguments against the server's original schema first: a mismatch is a
   * ToolInputParsingException (a ToolNode or `createAgent` hands it to the model to correct).
   */
  override call<
    TArg extends StructuredToolCallInput<JSONSchema, unknown>,
    TConfig extends ToolRunnableConfig | undefined,
  >(
    arg: TArg,
    configArg?: TConfig,
    tags?: string[],
  ): Promise<ToolReturnType<TArg, TConfig, unknown>> {
    const args = isToolCall(arg) ? arg.args : arg;
    // A schema ajv cannot compile (a remote `$ref`) is checked through its inlined form, the one
    // the model sees; when neither compiles, the server judges.
    const problems =
      argumentProblems(this.definition.inputSchema, args) ??
      argumentProblems(this.#inlined, args) ??
      [];
    if (problems.length > 0) {
      const message =
        `Invalid arguments for tool "${this.#serverTool}" on server "${this.server}" ` +
        `(nothing was sent):\n- ${problems.join('\n- ')}`;
      return Promise.reject(new ToolInputParsingException(message, JSON.stringify(args)));
    }
    // As DynamicStructuredTool does: runs and traces carry the tool's name, not the class's.
    const config = parseCallbackConfigArg(configArg);
    return super.call(arg, { ...config, runName: config.runName ?? this.name } as TConfig, tags);
  }

  protected override async _call(
    args: unknown,
    runManager?: CallbackManagerForToolRun,
    config?: ToolRunnableConfig,
  ): Promise<McpToolOutput> {
    const options = this.#options;
    let call: McpToolCall = {
      server: this.server,
      tool: this.definition,
      name: this.name,
      arguments: args as JsonObject,
      config,
    };
    const replaced = await options.beforeCall?.(call);
    if (replaced !== undefined) call = { ...call, arguments: replaced };

    const callOptions: CallToolOptions = {};
    if (config?.signal) callOptions.signal = config.signal;
    if (options.timeoutMs !== undefined) callOptions.timeoutMs = options.timeoutMs;
    const { onProgress } = options;
    const writer = options.streamProgress ? writerOf(config) : undefined;
    if (onProgress || writer) {
      callOptions.onProgress = (progress) => {
        onProgress?.(progress, call);
        // A callback handler's failure must not end the call it reports on.
        runManager
          ?.handleCustomEvent('mcp_progress', { ...progress, tool: this.name })
          .catch(() => {});
        writer?.(this.#progressEvent(progress));
      };
    }
    const send = () => this.#client.callTool(this.definition.name, call.arguments, callOptions);
    // What runs during the call (an elicitation handler calling LangGraph's interrupt(), say)
    // finds the caller's context as it is. Under a tracer it runs in this tool run's context
    // instead, so a model a handler invokes is traced as the tool's child; without one, entering
    // a context would only cost a root run tree per call (a tenth of a call's CPU).
    const traced = runManager?.handlers.some((handler) => handler.name === 'langchain_tracer');
    let result: CallToolResult;
    try {
      result =
        runManager && traced
          ? await AsyncLocalStorageProviderSingleton.runWithConfig(
              pickRunnableConfigKeys(patchConfig(config, { callbacks: runManager.getChild() })),
              send,
            )
          : await send();
    } catch (error) {
      // A LangGraph interrupt raised by a handler must reach the graph as itself, not wrapped.
      throw bubbleUp(error) ?? error;
    }
    result = (await options.afterCall?.({ ...call, result })) ?? result;
    return this.#output(result, config);
  }

  /** What `streamMode: 'custom'` carries for one progress report. */
  #progressEvent(progress: Progress): McpProgressEvent {
    return { type: 'mcp_progress', server: this.server, tool: this.name, ...progress };
  }

  #output(result: CallToolResult, config: ToolRunnableConfig | undefined): McpToolOutput {
    const [content, artifact] = toContentAndArtifact(result, {
      server: this.server,
      tool: this.#serverTool,
      resources: this.#options.resources,
      ui: this.definition.ui,
    });
    if (!result.isError) return [content, artifact];
    const exception = new ToolException(this.server, this.#serverTool, result);
    const handle = this.#options.handleToolError;
    if (handle === undefined || handle === false) throw exception;
    const text =
      typeof handle === 'function'
        ? handle(exception)
        : typeof handle === 'string'
          ? handle
          : content || errorText(result);
    const toolCallId = config?.toolCall?.id;
    if (toolCallId === undefined) return [text, artifact];
    // A ToolMessage of our own, so the model (and LangSmith) see status "error".
    const message = new ToolMessage({
      content: text,
      artifact,
      tool_call_id: toolCallId,
      name: this.name,
      status: 'error',
      metadata: this.metadata ?? {},
    });
    return [message, artifact];
  }
}

/** A custom stream event: one progress report of a tool call inside a LangGraph run. */
export interface McpProgressEvent extends Progress {
  type: 'mcp_progress';
  /** The server the tool belongs to. */
  server: string;
  /** The tool's LangChain name. */
  tool: string;
}

/**
 * LangGraph's stream writer, as `getWriter()` finds it: on the config LangGraph hands the tool
 * (ToolNode and `createAgent` pass theirs on). It writes only when `streamMode` has 'custom'.
 */
function writerOf(config: ToolRunnableConfig | undefined): ((chunk: unknown) => void) | undefined {
  const carried = config as { writer?: unknown; configurable?: { writer?: unknown } } | undefined;
  const writer = carried?.writer ?? carried?.configurable?.writer;
  return typeof writer === 'function' ? (writer as (chunk: unknown) => void) : undefined;
}

function isToolCall(value: unknown): value is { args: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'tool_call' &&
    'args' in value
  );
}

/** The LangGraph control-flow error (interrupt, Command) in `error`'s cause chain, if any. */
function bubbleUp(error: unknown): unknown {
  for (let link = error, hops = 0; link instanceof Error && hops < 8; hops++) {
    if ((link as { is_bubble_up?: unknown }).is_bubble_up === true) return link;
    link = link.cause;
  }
  return undefined;
}
