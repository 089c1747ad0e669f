/** Fresh tools after the server's list changes: no stale list, no reconnect. */
import { createMcpClient, ToolNotFoundError } from '@toolwire/client';
import { McpToolkit, mcpStructuredTools } from '@toolwire/langchain';
import { startReferenceServer } from '@toolwire/reference-server';
import { expect, test } from 'vitest';
import { expectCleanClose, settledHandles } from '../helpers/handles.ts';
import { waitFor } from '../reference/helpers.ts';

const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);

test('mcpStructuredTools called again after a list change returns the new list', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const before = await mcpStructuredTools(client);
  expect(names(before)).not.toContain('bonus');

  await before.find((tool) => tool.name === 'toggle_tool')!.invoke({});

  // The notification arrives on its own stream, a moment after the call's answer.
  await expect.poll(async () => names(await mcpStructuredTools(client))).toContain('bonus');
});

test('a toolkit follows the server: the new tool appears in getTools() on its own', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  using toolkit = await McpToolkit.create(client, { exclude: ['log'] });
  expect(names(toolkit.getTools())).not.toContain('bonus');
  expect(names(toolkit.getTools())).not.toContain('log');

  await client.callTool('toggle_tool');

  await waitFor(() => names(toolkit.getTools()).includes('bonus'));
  expect(toolkit.stale).toBe(false);
  const bonus = toolkit.getTools().find((tool) => tool.name === 'bonus')!;
  expect(await bonus.invoke({})).toBe('bonus');
  // The options still apply to the new list.
  expect(names(toolkit.getTools())).not.toContain('log');
});

test('a tool removed on the server fails with the client ToolNotFoundError, naming what exists', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  await client.callTool('toggle_tool');
  await expect.poll(async () => names(await mcpStructuredTools(client))).toContain('bonus');
  const tools = await mcpStructuredTools(client, { include: ['bonus'] });

  await client.callTool('toggle_tool');
  await expect.poll(async () => names(await mcpStructuredTools(client))).not.toContain('bonus');
  // A LangChain tool object kept from before the change: the call fails with a typed error.
  const error = await tools[0]!.invoke({}).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ToolNotFoundError);
  expect((error as ToolNotFoundError).message).toContain('echo');
});

test('a toolkit and its client leave no socket or timer behind once closed', async () => {
  await using server = await startReferenceServer();
  const baseline = await settledHandles();
  const client = createMcpClient(server.url);
  using toolkit = await McpToolkit.create(client);
  await toolkit
    .getTools()
    .find((tool) => tool.name === 'echo')!
    .invoke({ text: 'x' });
  await expectCleanClose(client, baseline);
});
