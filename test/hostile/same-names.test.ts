/**
 * One server, one set of names: a tool's provider-safe name is the same in the AI SDK and in
 * LangChain, so a saved conversation, an approval list or a trace means the same tool in both.
 * The server picks names that need every kind of repair (spaces, dots, unicode, too long, only
 * punctuation, `__proto__`) and pairs that collide once repaired; each name must also lead back
 * to its own tool when called.
 */
import { mcpToolSet } from '@toolwire/ai-sdk';
import { createMcpClient } from '@toolwire/client';
import { mcpStructuredTools } from '@toolwire/langchain';
import { generateText, stepCountIs } from 'ai';
import { expect, test } from 'vitest';
import { ScriptedModel } from '../adapter-ai-sdk/model.ts';
import { type HostileServer, startHostileServer } from './raw-server.ts';

const pinned = { listen: false, protocolVersion: '2025-11-25' } as const;
const LONG = 'x'.repeat(70);

/** In this order on purpose: a repaired name is listed before the safe name it collides with. */
const AWKWARD = [
  'files.read',
  'files_read',
  'get weather',
  'get_weather',
  'café',
  '😀 emoji',
  `${LONG}_one`,
  `${LONG}_two`,
  'a'.repeat(80),
  '__proto__',
  '!!!',
  '___',
  'ok',
];

/**
 * What AWKWARD is named without a prefix: the AI SDK adapter's names before the rule moved to the
 * client, kept, so names saved from it still mean the same tools.
 */
const NAMES = [
  'files_read_a49h52',
  'files_read',
  'get_weather_nt1ueb',
  'get_weather',
  'caf_',
  '___emoji',
  `${'x'.repeat(56)}_1uz2h4e`,
  `${'x'.repeat(56)}_1ft5u0k`,
  `${'a'.repeat(57)}_mjqhn9`,
  '__proto__',
  '____1ws9ona',
  '___',
  'ok',
];

/** Lists the awkward tools; a call answers with the server's name of the tool called. */
function startAwkwardServer(): Promise<HostileServer> {
  const schema = '{"type":"object","properties":{"x":{"type":"string"}}}';
  const tools = AWKWARD.map((name) => `{"name":${JSON.stringify(name)},"inputSchema":${schema}}`);
  return startHostileServer((request) => {
    if (request.method === 'tools/list') return `{"tools":[${tools.join(',')}]}`;
    if (request.method === 'tools/call') {
      const text = JSON.stringify(`called ${String(request.params?.['name'])}`);
      return `{"content":[{"type":"text","text":${text}}]}`;
    }
    return undefined;
  });
}

test.each([{ prefix: '' }, { prefix: 'my server.' }])(
  'the AI SDK and LangChain name every tool alike, and each name calls its own tool (prefix "$prefix")',
  async ({ prefix }) => {
    await using server = await startAwkwardServer();
    await using client = createMcpClient(server.url, pinned);

    const set = await mcpToolSet(client, { prefix });
    const aiNames = AWKWARD.map((name) => set.modelName(name));
    const langchain = await mcpStructuredTools(client, { prefix });
    const lcNames = langchain.map((tool) => tool.name);
    expect(lcNames).toEqual(aiNames);
    expect(Object.keys(set.tools).sort()).toEqual([...aiNames].sort());
    for (const name of aiNames) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(aiNames).size).toBe(AWKWARD.length);
    expect(aiNames.map((name) => set.serverName(name!))).toEqual(AWKWARD);
    // Without a prefix, `files_read` needs no repair and keeps its name though listed second.
    if (prefix === '') expect(aiNames).toEqual(NAMES);

    // Through LangChain: each tool, invoked by its name, reaches the server's tool of that name.
    for (const [index, tool] of langchain.entries()) {
      const message = await tool.invoke({
        name: tool.name,
        args: { x: 'y' },
        id: `call-${index}`,
        type: 'tool_call',
      });
      expect((message as { content: unknown }).content).toBe(`called ${AWKWARD[index]}`);
    }

    // Through the AI SDK: a model calling each name reaches the same tool.
    const model = new ScriptedModel([
      { calls: aiNames.map((tool) => ({ tool: tool!, input: { x: 'y' } })) },
      { text: 'done' },
    ]);
    await generateText({ model, tools: set.tools, prompt: 'call them', stopWhen: stepCountIs(3) });
    const seen = model.outputsSeen(2);
    AWKWARD.forEach((name, index) => {
      expect(seen.get(`call-1-${index + 1}`)).toEqual({ type: 'text', value: `called ${name}` });
    });
  },
);
