/**
 * MCP Apps in an AI SDK loop: the client says it renders views, the server offers its UI tools,
 * the model is shown the app tool but never the app-only one, and the tool result carries the
 * view a host renders with `readAppResource`.
 */
import { mcpTools, readAppResource, serverInstructions } from '@toolwire/ai-sdk';
import { createMcpClient } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { generateText, stepCountIs } from 'ai';
import { expect, test } from 'vitest';
import { ScriptedModel } from './model.ts';

test('the app-only tool is absent from the model tools; the app tool carries its view', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { apps: true });
  // The host sees both UI tools; the model's tool set leaves the app-only one out.
  expect((await client.listTools()).map((tool) => tool.name)).toContain('counter_view_refresh');
  const tools = await mcpTools(client);
  expect(tools).not.toHaveProperty('counter_view_refresh');

  const model = new ScriptedModel([
    { calls: [{ tool: 'counter_view', input: {} }] },
    { text: 'shown' },
  ]);
  const result = await generateText({
    model,
    tools,
    prompt: 'show the counter',
    stopWhen: stepCountIs(3),
  });
  expect(model.toolsOffered(1)).toContain('counter_view');
  expect(model.toolsOffered(1)).not.toContain('counter_view_refresh');

  // The result part tells the host which view renders it; the model read the text.
  const part = result.steps[0]!.toolResults[0]!;
  expect(part.toolMetadata).toMatchObject({
    toolName: 'counter_view',
    ui: { resourceUri: 'ui://reference/counter-view', visibility: ['model', 'app'] },
  });
  const uri = (part.toolMetadata as { ui: { resourceUri: string } }).ui.resourceUri;
  const view = await readAppResource(client, uri, { tool: part.toolName });
  expect(view.mimeType).toBe('text/html;profile=mcp-app');
  expect(view.html).toContain('<!DOCTYPE html>');
  expect(model.outputsSeen(2).get('call-1-1')).toEqual({
    type: 'content',
    value: [
      { type: 'text', text: 'the counter is 0' },
      { type: 'text', text: '{"counter":0}' },
    ],
  });
});

test("the server's instructions are the application's to give the model, never added by the adapter", async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const instructions = (await serverInstructions(client))!;
  expect(instructions).toBe(client.instructions);
  expect(instructions.length).toBeGreaterThan(0);

  const silent = new ScriptedModel([{ text: 'ok' }]);
  await generateText({ model: silent, tools: await mcpTools(client), prompt: 'hi' });
  expect(silent.calls[0]?.prompt.some((message) => message.role === 'system')).toBe(false);

  const told = new ScriptedModel([{ text: 'ok' }]);
  await generateText({ model: told, tools: await mcpTools(client), instructions, prompt: 'hi' });
  expect(told.calls[0]?.prompt[0]).toEqual({ role: 'system', content: instructions });
});
