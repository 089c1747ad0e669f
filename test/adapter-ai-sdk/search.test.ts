/**
 * A large server behind the AI SDK's tool search: 200 tools from the official v2 server, deferred
 * (`deferLoading`) so the model sees only `toolSearch()` at first, finds the one it needs, and
 * calls it on the next step. Also the other per-tool settings the adapter passes through.
 */
import { mcpTools } from '@toolwire/ai-sdk';
import { createMcpClient } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { generateText, stepCountIs, toolSearch } from 'ai';
import { expect, test } from 'vitest';
import { startLargeServer } from '../helpers/large-server.ts';
import { ScriptedModel } from './model.ts';

test('toolSearch() over 200 deferred tools: the model finds one, and the next step can call it', async () => {
  await using server = await startLargeServer(200);
  await using client = createMcpClient(server.url);
  const mcp = await mcpTools(client, { deferLoading: true });
  expect(Object.keys(mcp)).toHaveLength(200);
  const model = new ScriptedModel([
    { calls: [{ tool: 'search_tools', input: { query: 'weather forecast' } }] },
    { calls: [{ tool: 'weather_forecast', input: { query: 'Oslo' } }] },
    { text: 'sunny' },
  ]);
  const result = await generateText({
    model,
    tools: { ...mcp, search_tools: toolSearch() },
    prompt: 'weather in Oslo?',
    stopWhen: stepCountIs(5),
  });
  expect(result.text).toBe('sunny');
  // First step: the search tool alone, none of the 200.
  expect(model.toolsOffered(1)).toEqual(['search_tools']);
  // The search found the tool by its description, and made it available on the next step.
  expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
    tools: [{ name: 'weather_forecast' }],
  });
  expect(model.toolsOffered(2)).toEqual(['search_tools', 'weather_forecast']);
  expect(model.outputsSeen(3).get('call-2-1')).toEqual({
    type: 'text',
    value: 'weather_forecast: Oslo',
  });
  expect(server.calls).toEqual(new Map([['weather_forecast', 1]]));
});

test('deferLoading by name keeps the others in view; a function decides per tool', async () => {
  await using server = await startLargeServer(20);
  await using client = createMcpClient(server.url);
  const byName = await mcpTools(client, { deferLoading: ['tool_1', 'tool_2'] });
  expect(byName['tool_1']?.deferLoading).toBe(true);
  expect(byName['tool_3']?.deferLoading).toBeUndefined();
  const byRule = await mcpTools(client, { deferLoading: (tool) => tool.name.startsWith('tool_') });
  expect(byRule['tool_3']?.deferLoading).toBe(true);
  expect(byRule['weather_forecast']?.deferLoading).toBeUndefined();
});

test('strict, providerOptions and inputExamples reach the model with each tool', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpTools(client, {
    include: ['echo', 'add'],
    // A function may leave a tool unset (undefined), as for echo.
    strict: (tool) => (tool.name === 'add' ? true : undefined),
    providerOptions: { openai: { parallelToolCalls: false } },
    inputExamples: { echo: [{ input: { text: 'hello' } }] },
  });
  const model = new ScriptedModel([{ text: 'nothing to do' }]);
  await generateText({ model, tools, prompt: 'hi' });
  const offered = Object.fromEntries(
    (model.calls[0]?.tools ?? []).map((tool) => [tool.name, tool]),
  );
  expect(offered['add']).toMatchObject({
    strict: true,
    providerOptions: { openai: { parallelToolCalls: false } },
  });
  expect(offered['echo']).toMatchObject({
    inputExamples: [{ input: { text: 'hello' } }],
    providerOptions: { openai: { parallelToolCalls: false } },
  });
  expect(offered['echo']).not.toHaveProperty('strict');
  expect(offered['add']).not.toHaveProperty('inputExamples');
});
