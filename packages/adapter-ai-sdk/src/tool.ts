/**
 * One MCP tool as one AI SDK tool: the server's schema (or the caller's), arguments checked
 * before the call, the AI SDK's abort signal carried to the server, hooks around the call, and
 * the result turned into model parts by `toModelOutput`.
 */
import {
  type CallToolOptions,
  type CallToolResult,
  type ContentBlock,
  type JsonObject,
  type JsonSchema,
  type McpClient,
  type Tool as McpTool,
  OutputValidationError,
} from '@toolwire/client';
import { asSchema, dynamicTool, type JSONValue, jsonSchema, type Tool, tool } from 'ai';
import { argumentProblems } from './arguments.ts';
import { ToolArgumentsError, ToolResultError } from './errors.ts';
import { describeError, toModelOutput } from './model-output.ts';
import type { McpToolCall, ResolvedOptions, ToolSchema } from './options.ts';

type ProviderSchema = Parameters<typeof jsonSchema>[0];

/** What the AI SDK hands `execute`, as far as a tool of ours reads it. */
interface Execution {
  toolCallId: string;
  abortSignal?: AbortSignal | undefined;
}

export function toAiTool(
  client: McpClient,
  definition: McpTool,
  name: string,
  options: ResolvedOptions,
): Tool {
  const typed = options.schemas[definition.name];
  const execute = (input: unknown, execution: Execution) =>
    run(client, { tool: definition, name, toolCallId: execution.toolCallId }, input, {
      options,
      typed,
      signal: execution.abortSignal,
    });
  const description = definition.description ?? definition.title;
  const common = {
    ...(description === undefined ? {} : { description }),
    metadata: metadataOf(client, definition),
    ...(options.needsApproval(definition) ? { needsApproval: true } : {}),
    execute,
    toModelOutput: ({ output }: { output: unknown }) => toModelOutput(output),
  };
  if (typed) return tool({ ...common, inputSchema: typed.inputSchema });
  return dynamicTool({
    ...common,
    inputSchema: jsonSchema(forProvider(definition.inputSchema), {
      validate: (value) => {
        const problems = argumentProblems(definition.inputSchema, value);
        return problems.length === 0
          ? { success: true, value }
          : { success: false, error: new ToolArgumentsError(definition.name, problems) };
      },
    }),
  });
}

/** The `_meta` key that carries the AI SDK's tool call id to the server. */
export const TOOL_CALL_ID_META = 'dev.toolwire/toolCallId';

async function run(
  client: McpClient,
  call: Omit<McpToolCall, 'arguments'>,
  input: unknown,
  context: {
    options: ResolvedOptions;
    typed: ToolSchema | undefined;
    signal: AbortSignal | undefined;
  },
): Promise<CallToolResult> {
  const { options, typed, signal } = context;
  const definition = call.tool;
  if (typed) {
    // The caller's schema said yes; the server's schema has the last word before the call.
    const problems = argumentProblems(definition.inputSchema, input);
    if (problems.length > 0) throw new ToolArgumentsError(definition.name, problems);
  }
  let current: McpToolCall = { ...call, arguments: (input ?? {}) as JsonObject };
  const replaced = await options.beforeCall?.(current);
  if (replaced) current = { ...current, arguments: replaced };

  // The model's id for this call rides in `_meta`, so the server can tie its logs to the model's.
  const callOptions: CallToolOptions = { meta: { [TOOL_CALL_ID_META]: current.toolCallId } };
  if (signal) callOptions.signal = signal;
  if (options.timeoutMs !== undefined) callOptions.timeoutMs = options.timeoutMs;
  const { onProgress } = options;
  if (onProgress) callOptions.onProgress = (progress) => onProgress(progress, current);
  let result = await client.callTool(definition.name, current.arguments, callOptions);

  if (options.readResourceLinks) {
    result = await withLinkedResources(client, result, current, options.readResourceLinks, signal);
  }
  const after = await options.afterCall?.({ ...current, result });
  if (after) result = after;
  if (result.isError && options.toolErrors === 'throw') {
    throw new ToolResultError(definition.name, result, describeError(result));
  }
  if (typed?.outputSchema && !result.isError)
    await checkOutput(typed.outputSchema, result, client, call);
  return result;
}

/** Each chosen resource link is followed by the contents `resources/read` gives for it. */
async function withLinkedResources(
  client: McpClient,
  result: CallToolResult,
  call: McpToolCall,
  pick: NonNullable<ResolvedOptions['readResourceLinks']>,
  signal: AbortSignal | undefined,
): Promise<CallToolResult> {
  const expanded = await Promise.all(
    result.content.map(async (block): Promise<ContentBlock[]> => {
      if (block.type !== 'resource_link' || !pick(block, call)) return [block];
      try {
        const read = await client.readResource(block.uri, signal ? { signal } : {});
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
  client: McpClient,
  call: Omit<McpToolCall, 'arguments'>,
): Promise<void> {
  const checked = await asSchema(schema).validate?.(result.structuredContent);
  if (!checked || checked.success) return;
  throw new OutputValidationError(result, [checked.error.message], {
    url: client.url,
    method: 'tools/call',
    tool: call.tool.name,
  });
}

/** Providers want an object schema with `properties`; a server may leave them out. */
function forProvider(schema: JsonSchema): ProviderSchema {
  return { ...schema, type: 'object', properties: schema['properties'] ?? {} } as ProviderSchema;
}

/** Not sent to the model; the AI SDK copies it onto tool call and result parts. */
function metadataOf(client: McpClient, definition: McpTool): Record<string, JSONValue> {
  const metadata: Record<string, JSONValue> = { server: client.url, toolName: definition.name };
  if (definition.title !== undefined) metadata['title'] = definition.title;
  if (definition.annotations)
    metadata['annotations'] = { ...definition.annotations } as Record<string, JSONValue>;
  return metadata;
}
