/**
 * Progress through LangGraph's stream writer: inside an agent, each progress report of a tool
 * call is written with `getWriter()`'s writer, so `streamMode: 'custom'` carries it.
 */
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createMcpClient } from '@toolwire/client';
import { mcpStructuredTools } from '@toolwire/langchain';
import { startReferenceServer } from '@toolwire/reference-server';
import { createAgent } from 'langchain';
import { expect, test } from 'vitest';
import { posts } from '../reference/helpers.ts';

test("streamMode 'custom' carries each progress report of an MCP tool call", async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client, { include: ['progress'], serverName: 'ref' });
  const model = fakeModel()
    .respondWithTools([{ name: 'progress', args: { steps: 3 }, id: 'p' }])
    .respond(new AIMessage('done'));
  const agent = createAgent({ model, tools });

  const custom: unknown[] = [];
  for await (const chunk of await agent.stream(
    { messages: [new HumanMessage('work')] },
    { streamMode: 'custom' },
  )) {
    custom.push(chunk);
  }
  expect(custom).toEqual(
    [1, 2, 3].map((step) => ({
      type: 'mcp_progress',
      server: 'ref',
      tool: 'progress',
      progress: step,
      total: 3,
      message: `step ${step}`,
    })),
  );
});

test('outside a graph, or with streamProgress off, no progress is asked for', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const [direct] = await mcpStructuredTools(client, { include: ['progress'] });
  await direct!.invoke({ steps: 1 });
  const [quiet] = await mcpStructuredTools(client, {
    include: ['progress'],
    streamProgress: false,
  });
  const model = fakeModel()
    .respondWithTools([{ name: 'progress', args: { steps: 1 }, id: 'p' }])
    .respond(new AIMessage('done'));
  await createAgent({ model, tools: [quiet!] }).invoke({ messages: [new HumanMessage('work')] });
  for (const post of posts(server, 'tools/call')) {
    expect((post.body as { params: { _meta?: unknown } }).params._meta).toBeUndefined();
  }
  expect(posts(server, 'tools/call')).toHaveLength(2);
});
