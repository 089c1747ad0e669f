/**
 * What a tool set costs a model: each tool as the AI SDK hands it to the provider (its name in
 * the set, description and JSON input schema, `slim` or not), counted by the client's
 * `toolTokens` with a real tokenizer, loaded on first use.
 */
import { type ToolTokens, type ToolTokensOptions, toolTokens } from '@toolwire/client';
import { asSchema, type ToolSet } from 'ai';

/** Per tool, per server (the `serverName` our tools carry) and in all: `mcpToolTokens(tools, { tokenizer: 'claude' })`. */
export async function mcpToolTokens(
  tools: ToolSet,
  options: ToolTokensOptions = {},
): Promise<ToolTokens> {
  const definitions = await Promise.all(
    Object.entries(tools).map(async ([name, tool]) => {
      const server = (tool.metadata as { serverName?: unknown } | undefined)?.serverName;
      return {
        name,
        // A description written as a function of the call's context has no one text to count.
        description: typeof tool.description === 'string' ? tool.description : undefined,
        // The schema the provider is sent: asSchema gives the same JSON for zod or jsonSchema().
        inputSchema: await asSchema(tool.inputSchema).jsonSchema,
        ...(typeof server === 'string' ? { server } : {}),
      };
    }),
  );
  return toolTokens(definitions, options);
}
