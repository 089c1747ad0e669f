/**
 * MCP Apps in a LangChain agent: the app-only tool never reaches the model, the app tool's result
 * carries its view in the artifact for the host to render, and the server's instructions are the
 * application's to give (never added by the adapter).
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createMcpClient } from '@toolwire/client';
import {
  type McpArtifact,
  mcpStructuredTools,
  readAppResource,
  serverInstructions,
} from '@toolwire/langchain';
import { startReferenceServer } from '@toolwire/reference-server';
import { createAgent } from 'langchain';
import { expect, test } from 'vitest';

test('the app-only tool is absent from the agent; the app tool result names its view', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { apps: true });
  expect((await client.listTools()).map((tool) => tool.name)).toContain('counter_view_refresh');
  const tools = await mcpStructuredTools(client);
  const names = tools.map((tool) => tool.name);
  expect(names).toContain('counter_view');
  expect(names).not.toContain('counter_view_refresh');

  const model = fakeModel()
    .respondWithTools([{ name: 'counter_view', args: {}, id: 'v' }])
    .respond(new AIMessage('shown'));
  const { messages } = await createAgent({ model, tools }).invoke({
    messages: [new HumanMessage('show it')],
  });
  const message = messages.find((m): m is ToolMessage => ToolMessage.isInstance(m))!;
  const artifact = message.artifact as McpArtifact;
  expect(artifact.ui).toEqual({
    resourceUri: 'ui://reference/counter-view',
    visibility: ['model', 'app'],
  });
  const view = await readAppResource(client, artifact.ui!.resourceUri!, { tool: artifact.tool });
  expect(view.html).toContain('<!DOCTYPE html>');
  expect(tools.find((tool) => tool.name === 'counter_view')?.metadata).toMatchObject({
    mcp: { ui: { resourceUri: 'ui://reference/counter-view' } },
  });
});

test("the server's instructions go into the system prompt only when the application puts them there", async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client, { include: ['echo'] });
  const instructions = (await serverInstructions(client))!;
  expect(instructions).toBe(client.instructions);

  const silent = fakeModel().respond(new AIMessage('ok'));
  await createAgent({ model: silent, tools }).invoke({ messages: [new HumanMessage('hi')] });
  expect(silent.calls[0]?.messages.some((m) => SystemMessage.isInstance(m))).toBe(false);

  const told = fakeModel().respond(new AIMessage('ok'));
  await createAgent({ model: told, tools, systemPrompt: instructions }).invoke({
    messages: [new HumanMessage('hi')],
  });
  expect(told.calls[0]?.messages[0]).toBeInstanceOf(SystemMessage);
  expect(told.calls[0]?.messages[0]?.text).toBe(instructions);
});
