/**
 * What a list of tools costs a model: each as LangChain hands it to the provider (name,
 * description, JSON input schema, `slim` or not), counted by the client's `toolTokens` with a
 * real tokenizer, loaded on first use.
 */
import type { StructuredToolInterface } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { type ToolTokens, type ToolTokensOptions, toolTokens } from '@toolwire/client';
import { McpStructuredTool } from './tool.ts';

/** Per tool, per server (our tools' `server`) and in all: `mcpToolTokens(tools, { tokenizer: 'claude' })`. */
export function mcpToolTokens(
  tools: readonly StructuredToolInterface[],
  options: ToolTokensOptions = {},
): Promise<ToolTokens> {
  return toolTokens(
    tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      // Our tools carry JSON Schema already; another tool's (zod) is converted as LangChain does.
      inputSchema: toJsonSchema(tool.schema as Parameters<typeof toJsonSchema>[0]),
      ...(tool instanceof McpStructuredTool ? { server: tool.server } : {}),
    })),
    options,
  );
}
