/**
 * A server's tools, listed through the client, as LangChain tools. The client keeps the list until
 * the server says it changed, so calling this again is cheap and always up to date.
 */
import type { McpClient, RequestOptions } from '@toolwire/client';
import { assignNames } from './names.ts';
import { type McpToolsOptions, resolveOptions, selectTools } from './options.ts';
import { McpStructuredTool } from './tool.ts';

/**
 * Every tool the server offers (filtered, named and checked as `options` say) as a LangChain
 * StructuredTool, for `createAgent`, a LangGraph ToolNode or `model.bindTools`.
 */
export async function mcpStructuredTools(
  client: McpClient,
  options: McpToolsOptions & Pick<RequestOptions, 'signal'> = {},
): Promise<McpStructuredTool[]> {
  const resolved = resolveOptions(options);
  const listed = await client.listTools(
    options.signal ? { signal: options.signal, forModel: true } : { forModel: true },
  );
  const chosen = selectTools(listed, resolved);
  const server = resolved.serverName ?? client.serverInfo?.name ?? new URL(client.url).host;
  const names = assignNames(
    chosen.map((tool) => tool.name),
    { prefix: resolved.prefix, safe: resolved.safeNames },
  );
  return chosen.map(
    (tool) =>
      new McpStructuredTool(client, tool, {
        name: names.get(tool.name)!,
        server,
        options: resolved,
      }),
  );
}
