/**
 * Type-checked in the packed project with `tsc` under nodenext and bundler resolution: the
 * published types are found through `exports` and say what the code does.
 */
import { mcpTools } from '@toolwire/ai-sdk';
import { EXIT, parseMcpConfig, type ServerEntry } from '@toolwire/cli';
import {
  type CallToolResult,
  createMcpClient,
  GrpcStatusError,
  isMcpError,
  type McpClient,
  OutputValidationError,
} from '@toolwire/client';
import { mcpStructuredTools } from '@toolwire/langchain';
import { elicitationInterrupt } from '@toolwire/langchain/langgraph';
import { aesGcmSecrets, createRedisStores } from '@toolwire/redis';
import { startReferenceServer } from '@toolwire/reference-server';
import {
  type GrpcReferenceServer,
  startGrpcReferenceServer,
} from '@toolwire/reference-server/grpc';
import type { ToolSet } from 'ai';

/** The mcpServers reader, as a program that reuses it sees it: entries narrow by `kind`. */
export function remoteUrl(json: unknown): string | undefined {
  const entry: ServerEntry | undefined = parseMcpConfig(json, 'mcp.json').values().next().value;
  return entry?.kind === 'http' ? entry.url : entry?.command;
}

export const usageStatus: number = EXIT.usage;

export async function main(): Promise<number | undefined> {
  const server = await startReferenceServer();
  const stores = createRedisStores({ secrets: aesGcmSecrets('00'.repeat(32)) });
  const client: McpClient = createMcpClient(server.url, {
    onElicitation: elicitationInterrupt(),
    handles: stores.handles,
    verdicts: stores.verdicts,
    tracing: false,
  });
  try {
    const result: CallToolResult = await client.callTool('add', { a: 2, b: 3 });
    const tools: ToolSet = await mcpTools(client);
    const structured = await mcpStructuredTools(client);
    const sum = (result.structuredContent as { sum: number } | undefined)?.sum;
    return sum === undefined ? structured.length + Object.keys(tools).length : sum;
  } catch (error) {
    if (error instanceof OutputValidationError) return error.problems.length;
    if (isMcpError(error)) return undefined;
    throw error;
  } finally {
    await client.close();
    await stores.close();
    await server.close();
  }
}

/** MCP-lite over gRPC, typed through the `/grpc` subpath and the client's error tree. */
export async function overGrpc(): Promise<string | undefined> {
  const server: GrpcReferenceServer = await startGrpcReferenceServer({ streaming: false });
  const client = createMcpClient(server.url);
  try {
    server.faults.failNext(1, { code: 'UNAVAILABLE', rpc: 'CallTool' });
    await client.callTool('echo', { text: 'x' });
    return client.dialect;
  } catch (error) {
    if (error instanceof GrpcStatusError) return error.grpcStatus;
    throw error;
  } finally {
    await client.close();
    await server.close();
  }
}
