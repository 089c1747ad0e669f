/**
 * What the adapters take in place of a client: one server's `McpClient`, or the servers of
 * `createMcpClients` as one. Both list, call, stream and read the same way; what differs (which
 * server a tool belongs to) is answered here, once.
 */
import type { McpClient, RequestOptions } from '../client/client.ts';
import type { McpClients } from './clients.ts';

export type ToolSource = McpClient | McpClients;

/** The server a tool (by the name the source lists it under) belongs to. */
export interface ServerOfTool {
  /** The server's name: its key in `createMcpClients`, or the `serverInfo.name` one server gave (else its URL's host). */
  server: string;
  /** The server's URL (undefined for a local server). */
  url: string | undefined;
  /** The tool's name on that server. */
  tool: string;
}

export function serverOfTool(source: ToolSource, name: string): ServerOfTool {
  if ('originOf' in source) {
    const origin = source.originOf(name);
    if (origin) return { server: origin.server, url: urlOf(origin.client), tool: origin.tool };
    return { server: 'unknown', url: undefined, tool: name };
  }
  return { server: source.serverInfo?.name || hostOf(source.url), url: source.url, tool: name };
}

/**
 * The server's `instructions` (every server's, each headed by its name, for several), for the
 * application to put in a system prompt. Connects first. Undefined when the server gave none.
 * Instructions come from the server: read them before trusting them with a model.
 */
export async function serverInstructions(
  source: ToolSource,
  options: RequestOptions = {},
): Promise<string | undefined> {
  await source.connect(options);
  return source.instructions;
}

function urlOf(client: McpClient): string | undefined {
  return /^https?:/.test(client.url) ? client.url : undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
