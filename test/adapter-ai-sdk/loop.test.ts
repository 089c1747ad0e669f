/**
 * Real AI SDK loops (generateText, streamText, ToolLoopAgent) whose tools are the reference
 * server's, reached over loopback through every transport the client speaks.
 */
import { mcpTools } from '@toolwire/ai-sdk';
import { createMcpClient } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { generateText, stepCountIs, streamText, ToolLoopAgent } from 'ai';
import { expect, test } from 'vitest';
import { posts } from '../reference/helpers.ts';
import { ScriptedModel, type Step } from './model.ts';

const script: Step[] = [
  {
    calls: [
      { tool: 'echo', input: { text: 'hello' } },
      { tool: 'add', input: { a: 2, b: 40 } },
    ],
  },
  { calls: [{ tool: 'count', input: {} }] },
  { text: 'all done' },
];

/** What every loop below must have shown the model, read from what it was sent. */
function expectScriptRan(model: ScriptedModel): void {
  expect(model.calls).toHaveLength(3);
  expect(model.outputsSeen(2)).toEqual(
    new Map<string, unknown>([
      ['call-1-1', { type: 'text', value: 'hello' }],
      // add sends its sum as structuredContent and as the same JSON in text: the model gets it once.
      ['call-1-2', { type: 'text', value: '{"sum":42}' }],
    ]),
  );
  expect(model.outputsSeen(3).get('call-2-1')).toEqual({ type: 'text', value: '1' });
}

test('generateText runs several steps of MCP tool calls and the model sees each result', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const model = new ScriptedModel(script);
  const result = await generateText({
    model,
    tools: await mcpTools(client),
    prompt: 'use the tools',
    stopWhen: stepCountIs(5),
  });
  expect(result.text).toBe('all done');
  expect(result.steps).toHaveLength(3);
  expectScriptRan(model);
  expect(posts(server, 'tools/call')).toHaveLength(3);
  // The model was offered every server tool, with the server's description and schema.
  const echo = model.calls[0]?.tools?.find((tool) => tool.name === 'echo');
  expect(echo).toMatchObject({
    type: 'function',
    description: (await client.listTools()).find((tool) => tool.name === 'echo')?.description,
    inputSchema: { type: 'object', required: ['text'] },
  });
});

test('streamText runs the same loop over a streamed model answer', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const model = new ScriptedModel(script);
  const result = streamText({
    model,
    tools: await mcpTools(client),
    prompt: 'use the tools',
    stopWhen: stepCountIs(5),
  });
  expect(await result.text).toBe('all done');
  expectScriptRan(model);
  const results = (await result.steps).flatMap((step) => step.toolResults);
  expect(results.map((part) => part.toolName)).toEqual(['echo', 'add', 'count']);
  expect(results.every((part) => part.dynamic)).toBe(true);
});

test('ToolLoopAgent takes the tool set as it is', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const model = new ScriptedModel(script);
  const agent = new ToolLoopAgent({ model, tools: await mcpTools(client) });
  const result = await agent.generate({ prompt: 'use the tools' });
  expect(result.text).toBe('all done');
  expectScriptRan(model);
});

test.each([
  ['stateful Streamable HTTP (SSE answers)', 'stateful'],
  ['stateful Streamable HTTP (JSON answers)', 'statefulJson'],
  ['stateless legacy', 'stateless'],
  ['2026-07-28', 'modern'],
  ['2024-11-05 HTTP+SSE', 'sse'],
] as const)('the same tool set works on %s', async (_label, endpoint) => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls[endpoint]);
  const model = new ScriptedModel([
    { calls: [{ tool: 'echo', input: { text: `via ${endpoint}` } }] },
    { text: 'ok' },
  ]);
  const tools = await mcpTools(client);
  const result = await generateText({ model, tools, prompt: 'echo', stopWhen: stepCountIs(3) });
  expect(result.text).toBe('ok');
  expect(model.outputsSeen(2).get('call-1-1')).toEqual({ type: 'text', value: `via ${endpoint}` });
  // The metadata names the server and the tool, and reaches the result part.
  expect(result.steps[0]?.toolResults[0]).toMatchObject({
    toolMetadata: { server: client.url, toolName: 'echo' },
  });
});
