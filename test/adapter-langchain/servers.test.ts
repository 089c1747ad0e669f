/**
 * Three servers as one LangChain tool set (`createMcpClients`) in a LangGraph agent: names kept
 * apart, each call on its own server, errors naming the server; one server stopped mid-run fails
 * only its own call, and `McpToolkit` drops its tools, then takes them back when it returns.
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createMcpClients } from '@toolwire/client';
import { McpToolkit } from '@toolwire/langchain';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { createAgent } from 'langchain';
import { expect, test } from 'vitest';
import { posts, waitFor } from '../reference/helpers.ts';

function toolMessages(messages: unknown[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

test('three servers, one stopped mid-run: its call fails alone; the toolkit drops and regains its tools', async () => {
  await using alpha = await startReferenceServer();
  let beta: ReferenceServer = await startReferenceServer();
  await using gamma = await startReferenceServer();
  const port = Number(new URL(beta.url).port);
  await using clients = createMcpClients(
    { alpha: alpha.url, beta: beta.urls.modern, gamma: gamma.urls.statefulJson },
    { reconnect: { minDelayMs: 20, maxDelayMs: 100 } },
  );
  try {
    using toolkit = await McpToolkit.create(clients, {
      include: ['alpha__echo', 'beta__echo', 'gamma__fail'],
      handleToolError: true,
    });
    const calls = [
      { name: 'alpha__echo', args: { text: 'a' }, id: 'a' },
      { name: 'beta__echo', args: { text: 'b' }, id: 'b' },
      { name: 'gamma__fail', args: { message: 'g failed' }, id: 'g' },
    ];
    const first = await createAgent({
      model: fakeModel().respondWithTools(calls).respond(new AIMessage('three')),
      tools: toolkit.getTools(),
    }).invoke({ messages: [new HumanMessage('go')] });
    const [a, b, g] = toolMessages(first.messages);
    expect([a?.content, b?.content, g?.content]).toEqual(['a', 'b', 'g failed']);
    // Each tool knows its own server and its own name there.
    const failing = toolkit.getTools().find((tool) => tool.name === 'gamma__fail')!;
    expect(failing.server).toBe('gamma');
    expect(failing.metadata).toMatchObject({ mcp: { server: 'gamma', tool: 'fail' } });
    for (const server of [alpha, beta, gamma]) expect(posts(server, 'tools/call')).toHaveLength(1);

    await beta.close();
    const second = await createAgent({
      model: fakeModel().respondWithTools(calls).respond(new AIMessage('two')),
      tools: toolkit.getTools(),
    }).invoke({ messages: [new HumanMessage('again')] });
    const byId = new Map(toolMessages(second.messages).map((m) => [m.tool_call_id, m]));
    expect(byId.get('a')?.content).toBe('a');
    expect(byId.get('b')?.status).toBe('error');
    expect(second.messages.at(-1)?.content).toBe('two');

    // The toolkit heard that beta went down, and lists without it.
    await waitFor(
      () => !toolkit.stale && !toolkit.getTools().some((tool) => tool.name === 'beta__echo'),
    );
    expect(toolkit.getTools().map((tool) => tool.name)).toEqual(['alpha__echo', 'gamma__fail']);

    beta = await startReferenceServer({ port });
    await waitFor(() => toolkit.getTools().some((tool) => tool.name === 'beta__echo'));
    expect(clients.status()).toEqual({ alpha: 'up', beta: 'up', gamma: 'up' });
  } finally {
    await beta.close();
  }
});
