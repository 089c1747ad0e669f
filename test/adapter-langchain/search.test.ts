/**
 * `extras.defer_loading` for LangChain's tool-search middleware (`providerToolSearchMiddleware`):
 * tools of a large server (the official v2 server) marked by the adapter reach the model as
 * deferred, beside the provider's own search tool. The middleware serves Anthropic and OpenAI
 * models only; the fake chat model answers to Anthropic's name for it.
 */
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createMcpClient } from '@toolwire/client';
import { mcpStructuredTools } from '@toolwire/langchain';
import { type AgentMiddleware, createAgent, providerToolSearchMiddleware } from 'langchain';
import { expect, test } from 'vitest';
import { startLargeServer } from '../helpers/large-server.ts';

test('deferred tools reach the model marked defer_loading, with the provider search tool', async () => {
  await using server = await startLargeServer(20);
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client, {
    deferLoading: (tool) => tool.name.startsWith('tool_'),
  });
  const weather = tools.find((tool) => tool.name === 'weather_forecast')!;
  expect(weather.extras).toBeUndefined();
  expect(tools.find((tool) => tool.name === 'tool_1')?.extras).toEqual({ defer_loading: true });

  const model = fakeModel().respond(new AIMessage('nothing to call'));
  const bound: unknown[][] = [];
  const bindTools = model.bindTools.bind(model);
  Object.assign(model, {
    getName: () => 'ChatAnthropic',
    bindTools: (offered: unknown[]) => {
      bound.push(offered);
      return bindTools(offered as never);
    },
  });
  // LangChain 1.5's middleware types do not compile under exactOptionalPropertyTypes (see interrupt-on.test.ts).
  const search = providerToolSearchMiddleware() as unknown as AgentMiddleware;
  const agent = createAgent({ model, tools, middleware: [search] });
  await agent.invoke({ messages: [new HumanMessage('hi')] });

  const offered = bound.at(-1) as Array<{ name?: string; type?: string; extras?: unknown }>;
  expect(offered).toContainEqual(
    expect.objectContaining({ name: 'tool_1', extras: { defer_loading: true } }),
  );
  // A tool not deferred goes as it is; the provider's own search tool comes last.
  expect(offered).toContain(weather);
  expect(offered.at(-1)).toMatchObject({ name: 'tool_search_tool_bm25' });
  expect(
    offered.filter(
      (tool) => (tool.extras as { defer_loading?: boolean } | undefined)?.defer_loading,
    ),
  ).toHaveLength(17);
});

test('deferLoading takes names too', async () => {
  await using server = await startLargeServer(5);
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client, { deferLoading: ['tool_1'] });
  expect(tools.filter((tool) => tool.extras?.['defer_loading']).map((tool) => tool.name)).toEqual([
    'tool_1',
  ]);
});
