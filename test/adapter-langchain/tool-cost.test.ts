/**
 * What the official "everything" server's tools cost a model as LangChain StructuredTools, with
 * a real tokenizer, without and with `slim`; slim tools still take every call the server's full
 * schema takes, and refuse what it refuses.
 */
import { ToolMessage } from '@langchain/core/messages';
import { createMcpClient } from '@toolwire/client';
import { mcpStructuredTools, mcpToolTokens } from '@toolwire/langchain';
import { expect, test } from 'vitest';
import { startEverythingServer } from '../helpers/everything-server.ts';

function toolCall(name: string, args: Record<string, unknown>) {
  return { name, args, id: `call-${name}`, type: 'tool_call' as const };
}

test('the everything server as slim StructuredTools: fewer tokens, the same calls accepted', async () => {
  await using server = await startEverythingServer();
  await using client = createMcpClient(server.url);
  const full = await mcpStructuredTools(client);
  const slim = await mcpStructuredTools(client, { slim: true });
  const before = await mcpToolTokens(full);
  const after = await mcpToolTokens(slim);
  console.info(`everything (LangChain) o200k: ${before.total} -> ${after.total} tokens`);
  expect(after.total).toBeLessThan(before.total);
  for (const [index, tool] of after.tools.entries()) {
    expect(tool.tokens, tool.name).toBeLessThanOrEqual(before.tools[index]!.tokens);
  }
  // Grouped under the one server's name.
  expect(Object.values(after.servers)).toEqual([after.total]);

  const byName = new Map(slim.map((tool) => [tool.name, tool]));
  for (const [name, args] of [
    ['echo', { message: 'hi' }],
    ['get-sum', { a: 2, b: 3 }],
    ['get-structured-content', { location: 'Chicago' }],
    ['get-resource-links', { count: 2 }],
  ] as const) {
    const message = await byName.get(name)!.invoke(toolCall(name, args));
    expect(message, name).toBeInstanceOf(ToolMessage);
    expect((message as ToolMessage).status, name).not.toBe('error');
  }
  // The server's full schema still checks: a count past its maximum never reaches the server.
  await expect(
    byName.get('get-resource-links')!.invoke(toolCall('get-resource-links', { count: 11 })),
  ).rejects.toThrow(/nothing was sent[\s\S]*count/);
}, 60_000);
