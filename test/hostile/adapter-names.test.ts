/**
 * Tool names and schemas a hostile server picks to break an adapter: names that are special on
 * JavaScript objects, and an input schema nested far deeper than any recursive walk can go. Each
 * such tool stays an ordinary tool, through both adapters, and the rest of the set is untouched.
 */
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { mcpToolApproval, mcpTools } from '@toolwire/ai-sdk';
import { createMcpClient } from '@toolwire/client';
import { mcpInterruptOn, mcpStructuredTools } from '@toolwire/langchain';
import { generateText, stepCountIs } from 'ai';
import { expect, test } from 'vitest';
import { ScriptedModel } from '../adapter-ai-sdk/model.ts';
import { type HostileServer, startHostileServer } from './raw-server.ts';

const pinned = { listen: false, protocolVersion: '2025-11-25' } as const;
const RESERVED = ['__proto__', 'constructor', 'prototype'];
const DEPTH = 10_000;

/** A schema nesting `DEPTH` objects, as text: JSON.stringify could not write it. */
const deepSchema = `${'{"type":"object","properties":{"d":'.repeat(DEPTH)}{"type":"string"}${'}}'.repeat(DEPTH)}`;

/** Lists the reserved names, `deep` and `ok`; a call answers with the tool's name. */
function startNamesServer(): Promise<HostileServer> {
  const plain = '{"type":"object","properties":{"x":{"type":"string"}}}';
  const tools = [...RESERVED, 'ok'].map((name) => `{"name":"${name}","inputSchema":${plain}}`);
  tools.push(`{"name":"deep","inputSchema":${deepSchema}}`);
  return startHostileServer((request) => {
    if (request.method === 'tools/list') return `{"tools":[${tools.join(',')}]}`;
    if (request.method === 'tools/call') {
      const text = JSON.stringify(`called ${String(request.params?.['name'])}`);
      return `{"content":[{"type":"text","text":${text}}]}`;
    }
    return undefined;
  });
}

const called = (name: string) => ({ type: 'text', value: `called ${name}` });

test('AI SDK: reserved names and a deep schema are ordinary tools that generateText calls', async () => {
  await using server = await startNamesServer();
  await using client = createMcpClient(server.url, pinned);
  const tools = await mcpTools(client);
  expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
  expect(Object.keys(tools).sort()).toEqual([...RESERVED, 'deep', 'ok'].sort());
  const names = [...RESERVED, 'deep'];
  const model = new ScriptedModel([
    { calls: names.map((tool) => ({ tool, input: { x: 'y' } })) },
    { text: 'done' },
  ]);
  await generateText({ model, tools, prompt: 'call them', stopWhen: stepCountIs(3) });
  expect(model.toolsOffered(1)).toEqual([...RESERVED, 'deep', 'ok'].sort());
  // What a provider would send: the deep schema must still serialize.
  expect(() => JSON.stringify(model.calls[0]?.tools)).not.toThrow();
  const seen = model.outputsSeen(2);
  names.forEach((name, index) => {
    expect(seen.get(`call-1-${index + 1}`)).toEqual(called(name));
  });
  // An approval map over the set keeps the names too.
  const approval = mcpToolApproval(tools, { when: 'always' });
  expect(Object.keys(approval).sort()).toEqual([...RESERVED, 'deep', 'ok'].sort());
});

test('LangChain: reserved names and a deep schema are ordinary tools, each callable', async () => {
  await using server = await startNamesServer();
  await using client = createMcpClient(server.url, pinned);
  const tools = await mcpStructuredTools(client);
  expect(tools.map((tool) => tool.name).sort()).toEqual([...RESERVED, 'deep', 'ok'].sort());
  for (const tool of tools) {
    const message = await tool.invoke({
      name: tool.name,
      args: { x: 'y' },
      id: `call-${tool.name}`,
      type: 'tool_call',
    });
    expect((message as { content: unknown }).content).toBe(`called ${tool.name}`);
  }
  // What a provider would send: the deep schema must still serialize.
  expect(() => JSON.stringify(tools.map((tool) => convertToOpenAITool(tool)))).not.toThrow();
  const interruptOn = mcpInterruptOn(tools);
  expect(Object.keys(interruptOn).sort()).toEqual([...RESERVED, 'deep', 'ok'].sort());
});
