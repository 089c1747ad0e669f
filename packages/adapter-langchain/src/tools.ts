/**
 * A server's tools, listed through the client, as LangChain tools. The client keeps the list until
 * the server says it changed, so calling this again is cheap and always up to date.
 */
import {
  providerToolNames,
  type RequestOptions,
  serverOfTool,
  type ToolSource,
  toolFingerprint,
} from '@toolwire/client';
import { type McpToolsOptions, resolveOptions, selectTools } from './options.ts';
import { McpStructuredTool } from './tool.ts';

/**
 * Every tool the server offers (filtered, named and checked as `options` say) as a LangChain
 * StructuredTool, for `createAgent`, a LangGraph ToolNode or `model.bindTools`. `client` may be
 * one server's client or the servers of `createMcpClients`. What a model must not see (MCP Apps
 * tools only the server's views may call) is left out.
 */
export async function mcpStructuredTools(
  client: ToolSource,
  options: McpToolsOptions & Pick<RequestOptions, 'signal'> = {},
): Promise<McpStructuredTool[]> {
  const resolved = resolveOptions(options);
  const listed = await client.listTools(
    options.signal ? { signal: options.signal, forModel: true } : { forModel: true },
  );
  const chosen = selectTools(listed, resolved);
  const { prefix } = resolved;
  // The client's naming, as the AI SDK adapter's: one server's tools get the same names in both.
  const names = providerToolNames(
    chosen.map((tool) => tool.name),
    { prefix },
  );
  const several = 'originOf' in client;
  const tools = chosen.map((tool) => {
    const origin = serverOfTool(client, tool.name);
    return new McpStructuredTool(client, tool, {
      name: resolved.safeNames ? names.modelName(tool.name)! : prefix + tool.name,
      server: several ? origin.server : (resolved.serverName ?? origin.server),
      tool: origin.tool,
      options: resolved,
    });
  });
  const { pins } = resolved;
  if (!pins) return tools;
  // A definition that changed since it was pinned is left out before any model sees it.
  const refused = pins.review(
    Object.fromEntries(
      tools.map((tool) => [
        tool.name,
        toolFingerprint({ description: tool.description, inputSchema: tool.schema }),
      ]),
    ),
  );
  return refused.size === 0 ? tools : tools.filter((tool) => !refused.has(tool.name));
}
