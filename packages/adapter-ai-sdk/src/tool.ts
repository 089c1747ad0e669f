/**
 * One MCP tool as one AI SDK tool: the server's schema (or the caller's), arguments checked
 * before the call, the AI SDK's abort signal carried to the server, hooks around the call, and
 * the result turned into model parts by `toModelOutput`. With `preliminaryResults`, `execute` is
 * an async iterable: what the server streams and reports comes out as preliminary results.
 */
import {
  argumentProblems,
  type CallToolOptions,
  type CallToolResult,
  type ContentBlock,
  getOwn,
  type JsonObject,
  type JsonSchema,
  type Tool as McpTool,
  nestsTooDeep,
  OutputValidationError,
  openSchema,
  serverOfTool,
  slimDescription,
  slimSchema,
  type ToolSource,
} from '@toolwire/client';
import { asSchema, dynamicTool, type JSONValue, jsonSchema, type Tool, tool } from 'ai';
import { ToolArgumentsError, ToolResultError } from './errors.ts';
import { describeError, toModelOutput } from './model-output.ts';
import type { McpToolCall, McpToolResult, ResolvedOptions, ToolSchema } from './options.ts';

type ProviderSchema = Parameters<typeof jsonSchema>[0];

/** What the AI SDK hands `execute`, as far as a tool of ours reads it. */
interface Execution {
  toolCallId: string;
  abortSignal?: AbortSignal | undefined;
}

/** Each tool's MCP definition, for what reads a tool set later (`mcpToolApproval`). */
const definitions = new WeakMap<object, McpTool>();

/** The server's definition of a tool this adapter built, or undefined for any other tool. */
export function definitionOf(aiTool: unknown): McpTool | undefined {
  return typeof aiTool === 'object' && aiTool !== null ? definitions.get(aiTool) : undefined;
}

export function toAiTool(
  source: ToolSource,
  definition: McpTool,
  name: string,
  options: ResolvedOptions,
): Tool {
  const typed = getOwn(options.schemas, definition.name);
  const call = (execution: Execution) => ({
    tool: definition,
    name,
    toolCallId: execution.toolCallId,
  });
  const execute = options.preliminaryResults
    ? (input: unknown, execution: Execution) =>
        streamRun(source, call(execution), input, { options, typed, signal: execution.abortSignal })
    : (input: unknown, execution: Execution) =>
        run(source, call(execution), input, { options, typed, signal: execution.abortSignal });
  const full = definition.description ?? definition.title;
  const description = full !== undefined && options.slim ? slimDescription(full) : full;
  const common = {
    ...(description === undefined ? {} : { description }),
    metadata: metadataOf(source, definition),
    ...(options.needsApproval(definition) ? { needsApproval: true } : {}),
    ...passedThrough(definition, options),
    execute,
    toModelOutput: ({ output }: { output: unknown }) => toModelOutput(output),
  };
  const built = typed
    ? tool({ ...common, inputSchema: typed.inputSchema })
    : dynamicTool({
        ...common,
        // Slim or not, the model's arguments are checked against the server's full schema below.
        inputSchema: jsonSchema(
          forProvider(definition.inputSchema, options.slim, definition.name),
          {
            validate: (value) => {
              // A schema ajv cannot compile checks nothing: the server still checks.
              const problems = argumentProblems(definition.inputSchema, value) ?? [];
              return problems.length === 0
                ? { success: true, value }
                : { success: false, error: new ToolArgumentsError(definition.name, problems) };
            },
          },
        ),
      });
  definitions.set(built, definition);
  return built;
}

/** `deferLoading`, `strict`, `providerOptions` and `inputExamples`, where the options set them. */
function passedThrough(definition: McpTool, options: ResolvedOptions) {
  const strict = options.strict(definition);
  const providerOptions = options.providerOptions(definition);
  const inputExamples = options.inputExamples(definition);
  return {
    ...(options.deferLoading(definition) ? { deferLoading: true } : {}),
    ...(strict === undefined ? {} : { strict }),
    ...(providerOptions === undefined ? {} : { providerOptions }),
    ...(inputExamples === undefined ? {} : { inputExamples: [...inputExamples] }),
  };
}

/** The `_meta` key that carries the AI SDK's tool call id to the server. */
export const TOOL_CALL_ID_META = 'dev.toolwire/toolCallId';

interface RunContext {
  options: ResolvedOptions;
  typed: ToolSchema | undefined;
  signal: AbortSignal | undefined;
}

/** The call as one promise: `execute` without preliminary results. */
async function run(
  source: ToolSource,
  call: Omit<McpToolCall, 'arguments'>,
  input: unknown,
  context: RunContext,
): Promise<CallToolResult> {
  const { current, callOptions } = await prepare(call, input, context);
  const { onProgress } = context.options;
  if (onProgress) callOptions.onProgress = (progress) => onProgress(progress, current);
  const result = await source.callTool(call.tool.name, current.arguments, callOptions);
  return finish(source, current, result, context);
}

/**
 * The call as an async iterable: each partial the server streams and each progress report is a
 * preliminary result (the content so far, the latest progress); the last is the final result.
 * Leaving the iteration early (the generation aborted) aborts the call.
 */
async function* streamRun(
  source: ToolSource,
  call: Omit<McpToolCall, 'arguments'>,
  input: unknown,
  context: RunContext,
): AsyncGenerator<McpToolResult> {
  const { current, callOptions } = await prepare(call, input, context);
  const { onProgress } = context.options;
  const content: ContentBlock[] = [];
  for await (const event of source.streamTool(call.tool.name, current.arguments, callOptions)) {
    if (event.type === 'partial') {
      // One by one: a spread of a server's array past ~120k items overflows the stack.
      for (const block of event.content) content.push(block);
      yield { content: [...content], isError: false };
    } else if (event.type === 'progress') {
      onProgress?.(event.progress, current);
      yield { content: [...content], isError: false, progress: event.progress };
    } else if (event.type === 'result') {
      yield await finish(source, current, event.result, context);
    }
  }
}

/** The checks and hooks before a call, and the call's options. */
async function prepare(
  call: Omit<McpToolCall, 'arguments'>,
  input: unknown,
  { options, typed, signal }: RunContext,
): Promise<{ current: McpToolCall; callOptions: CallToolOptions }> {
  const definition = call.tool;
  if (typed) {
    // The caller's schema said yes; the server's schema has the last word before the call.
    const problems = argumentProblems(definition.inputSchema, input) ?? [];
    if (problems.length > 0) throw new ToolArgumentsError(definition.name, problems);
  }
  let current: McpToolCall = { ...call, arguments: (input ?? {}) as JsonObject };
  const replaced = await options.beforeCall?.(current);
  if (replaced) current = { ...current, arguments: replaced };
  // The model's id for this call rides in `_meta`, so the server can tie its logs to the model's.
  const callOptions: CallToolOptions = { meta: { [TOOL_CALL_ID_META]: current.toolCallId } };
  if (signal) callOptions.signal = signal;
  if (options.timeoutMs !== undefined) callOptions.timeoutMs = options.timeoutMs;
  return { current, callOptions };
}

/** Linked resources, `afterCall`, `toolErrors` and the typed output check, after a call. */
async function finish(
  source: ToolSource,
  current: McpToolCall,
  answer: CallToolResult,
  { options, typed, signal }: RunContext,
): Promise<CallToolResult> {
  let result = answer;
  if (options.readResourceLinks) {
    result = await withLinkedResources(source, result, current, options.readResourceLinks, signal);
  }
  const after = await options.afterCall?.({ ...current, result });
  if (after) result = after;
  if (result.isError && options.toolErrors === 'throw') {
    throw new ToolResultError(current.tool.name, result, describeError(result));
  }
  if (typed?.outputSchema && !result.isError) {
    await checkOutput(typed.outputSchema, result, source, current);
  }
  return result;
}

/** Each chosen resource link is followed by the contents `resources/read` gives for it. */
async function withLinkedResources(
  source: ToolSource,
  result: CallToolResult,
  call: McpToolCall,
  pick: NonNullable<ResolvedOptions['readResourceLinks']>,
  signal: AbortSignal | undefined,
): Promise<CallToolResult> {
  // The tool's own server has the resource (several servers may share a URI).
  const readOptions = signal ? { signal, tool: call.tool.name } : { tool: call.tool.name };
  const expanded = await Promise.all(
    result.content.map(async (block): Promise<ContentBlock[]> => {
      if (block.type !== 'resource_link' || !pick(block, call)) return [block];
      try {
        const read = await source.readResource(block.uri, readOptions);
        return [
          block,
          ...read.contents.map((resource) => ({ type: 'resource' as const, resource })),
        ];
      } catch (error) {
        if (signal?.aborted) throw error;
        // One unreadable link should not cost the model the rest of the result.
        const reason = error instanceof Error ? error.message : String(error);
        return [
          block,
          { type: 'text', text: `[resource ${block.uri} could not be read: ${reason}]` },
        ];
      }
    }),
  );
  return { ...result, content: expanded.flat() };
}

async function checkOutput(
  schema: NonNullable<ToolSchema['outputSchema']>,
  result: CallToolResult,
  source: ToolSource,
  call: McpToolCall,
): Promise<void> {
  const checked = await asSchema(schema).validate?.(result.structuredContent);
  if (!checked || checked.success) return;
  throw new OutputValidationError(result, [checked.error.message], {
    url: serverOfTool(source, call.tool.name).url,
    method: 'tools/call',
    tool: call.tool.name,
  });
}

/** Providers want an object schema with `properties`; a server may leave them out. */
export function forProvider(schema: JsonSchema, slim = false, name = ''): ProviderSchema {
  if (nestsTooDeep(schema)) return openSchema() as ProviderSchema;
  const shown = slim ? slimSchema(schema, name) : schema;
  return { ...shown, type: 'object', properties: shown['properties'] ?? {} } as ProviderSchema;
}

/**
 * Not sent to the model; the AI SDK copies it onto tool call and result parts. An MCP Apps tool
 * carries its view (`ui.resourceUri`), so a host can render the result with `readAppResource`.
 */
function metadataOf(source: ToolSource, definition: McpTool): Record<string, JSONValue> {
  const origin = serverOfTool(source, definition.name);
  const metadata: Record<string, JSONValue> = {
    server: origin.url ?? origin.server,
    serverName: origin.server,
    toolName: origin.tool,
  };
  if (definition.title !== undefined) metadata['title'] = definition.title;
  if (definition.annotations)
    metadata['annotations'] = { ...definition.annotations } as Record<string, JSONValue>;
  if (definition.ui) {
    metadata['ui'] = {
      visibility: [...definition.ui.visibility],
      ...(definition.ui.resourceUri === undefined
        ? {}
        : { resourceUri: definition.ui.resourceUri }),
    };
  }
  return metadata;
}
