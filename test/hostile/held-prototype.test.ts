/**
 * Held: no prototype pollution from what a server sends. Every object a hostile server answers
 * with (the JSON-RPC envelopes, initialize, the tool list and its schemas, tool results and their
 * structuredContent, notifications on a call's stream, error data, resource contents, prompts and
 * their arguments, every `_meta`) carries real `__proto__` and `constructor.prototype` keys, sent
 * as raw JSON text. Through the client and both adapters, `Object.prototype` stays clean.
 */
import { mcpTools } from '@toolwire/ai-sdk';
import { createMcpClient, McpError } from '@toolwire/client';
import { mcpStructuredTools } from '@toolwire/langchain';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type RpcMessage, startMcpServer } from './servers.ts';

/** The keys that pollute an object's prototype when a naive merge or assignment walks them. */
const P = '"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}';

/** An envelope around `result` (raw JSON text), itself polluted. */
const answer = (message: RpcMessage, result: string) =>
  `{"jsonrpc":"2.0",${P},"id":${JSON.stringify(message.id)},"result":${result}}`;

const fail = (message: RpcMessage) =>
  `{"jsonrpc":"2.0",${P},"id":${JSON.stringify(message.id)},"error":{${P},"code":-32603,"message":"no","data":{${P},"detail":{${P}}}}}`;

const TOOLS = `{${P},"tools":[
  {${P},"name":"echo","description":"echoes",
   "inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"additionalProperties":true,${P}},
   "outputSchema":{"type":"object","properties":{"value":{"type":"number"}},${P}},
   "annotations":{${P},"readOnlyHint":true},"_meta":{${P},"ui":{${P}}}},
  {"name":"fails","inputSchema":{"type":"object",${P}},"_meta":{${P}}},
  {"name":"refuses","inputSchema":{"type":"object"}}
],"_meta":{${P}}}`;

const RESULT = `{${P},"content":[{${P},"type":"text","text":"ok","_meta":{${P}}},
  {"type":"resource","resource":{${P},"uri":"file:///x","text":"t"}}],
  "structuredContent":{${P},"value":1,"nested":{${P},"deeper":[{${P}}]}},
  "isError":false,"_meta":{${P},"io.example/x":{${P}}}}`;

const REFUSED = `{${P},"content":[{${P},"type":"text","text":"refused"}],"isError":true,"_meta":{${P}}}`;

function event(text: string): string {
  return `data: ${text.replace(/\n\s*/g, '')}\n\n`;
}

async function startPollutingServer() {
  return startMcpServer((message, res) => {
    const params = message.params ?? {};
    switch (message.method) {
      case 'server/discover':
        return fail(message).replace('-32603', '-32601');
      case 'initialize':
        return answer(
          message,
          `{${P},"protocolVersion":${JSON.stringify(params['protocolVersion'])},
            "capabilities":{${P},"tools":{${P},"listChanged":true},"resources":{${P}},"prompts":{${P}},"logging":{}},
            "serverInfo":{${P},"name":"polluting","version":"1.0.0"},"instructions":"none","_meta":{${P}}}`,
        );
      case 'tools/list':
        return answer(message, TOOLS);
      case 'tools/call': {
        const name = params['name'];
        if (name === 'fails') return fail(message);
        if (name === 'refuses') return answer(message, REFUSED);
        // On a stream, after notifications that are polluted too.
        const token = JSON.stringify(params._meta?.['progressToken'] ?? 'none');
        res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's-1' });
        res.end(
          event(
            `{"jsonrpc":"2.0",${P},"method":"notifications/progress","params":{${P},"progressToken":${token},"progress":1,"_meta":{${P}}}}`,
          ) +
            event(
              `{"jsonrpc":"2.0",${P},"method":"notifications/message","params":{${P},"level":"info","data":{${P}}}}`,
            ) +
            event(answer(message, RESULT)),
        );
        return true;
      }
      case 'resources/list':
        return answer(
          message,
          `{${P},"resources":[{${P},"uri":"file:///x","name":"x","_meta":{${P}}}]}`,
        );
      case 'resources/read':
        return answer(
          message,
          `{${P},"contents":[{${P},"uri":"file:///x","mimeType":"text/plain","text":"t","_meta":{${P}}}],"_meta":{${P}}}`,
        );
      case 'prompts/list':
        return answer(
          message,
          `{${P},"prompts":[{${P},"name":"p","arguments":[{${P},"name":"a","required":false}],"_meta":{${P}}}]}`,
        );
      case 'prompts/get':
        return answer(
          message,
          `{${P},"description":"d","messages":[{${P},"role":"user","content":{${P},"type":"text","text":"hi"}}],"_meta":{${P}}}`,
        );
      default:
        return answer(message, `{${P}}`);
    }
  });
}

function expectClean(): void {
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  expect((Object.prototype as Record<string, unknown>)['polluted']).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
  expect(([] as unknown as Record<string, unknown>)['polluted']).toBeUndefined();
}

function cleanUp(): void {
  for (const prototype of [Object.prototype, Array.prototype, Function.prototype]) {
    delete (prototype as unknown as Record<string, unknown>)['polluted'];
  }
}
beforeEach(cleanUp);
afterEach(cleanUp);

test('the client: list, call (result, stream, error, refusal), read and get leave Object.prototype clean', async () => {
  await using server = await startPollutingServer();
  await using client = createMcpClient(`${server.origin}/mcp`, {
    retry: { retries: 0, minDelayMs: 1 },
  });
  const tools = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain('echo');
  expectClean();
  const progress: unknown[] = [];
  const result = await client.callTool(
    'echo',
    { text: 'x' },
    { onProgress: (p) => void progress.push(p) },
  );
  expect(result.structuredContent).toMatchObject({ value: 1 });
  // The keys are there, as the server's own data, not as the prototype.
  expect(Object.hasOwn(result.structuredContent as object, '__proto__')).toBe(true);
  expect(progress).toHaveLength(1);
  expectClean();
  await expect(client.callTool('fails')).rejects.toBeInstanceOf(McpError);
  expectClean();
  expect((await client.callTool('refuses')).isError).toBe(true);
  expectClean();
  expect(await client.listResources()).toHaveLength(1);
  const read = await client.readResource('file:///x');
  expect(read.contents).toHaveLength(1);
  expectClean();
  expect(await client.listPrompts()).toHaveLength(1);
  const prompt = await client.getPrompt('p', { a: '1' });
  expect(prompt.messages).toHaveLength(1);
  expectClean();
});

test('@toolwire/ai-sdk: the tool set built and each tool executed directly', async () => {
  await using server = await startPollutingServer();
  await using client = createMcpClient(`${server.origin}/mcp`, {
    retry: { retries: 0, minDelayMs: 1 },
  });
  const tools = await mcpTools(client);
  expectClean();
  const options = { toolCallId: 'direct', messages: [], context: {} };
  const output = await tools['echo']?.execute?.({ text: 'x' }, options);
  expect(output).toBeDefined();
  expectClean();
  const refused = await Promise.resolve(tools['refuses']?.execute?.({}, options)).catch(
    (e: unknown) => e,
  );
  expect(refused).toBeDefined();
  expectClean();
  const failed = await Promise.resolve(tools['fails']?.execute?.({}, options)).catch(
    (e: unknown) => e,
  );
  expect(failed).toBeInstanceOf(McpError);
  expectClean();
});

test('@toolwire/langchain: the tools built and each invoked, with args and as a tool call', async () => {
  await using server = await startPollutingServer();
  await using client = createMcpClient(`${server.origin}/mcp`, {
    retry: { retries: 0, minDelayMs: 1 },
  });
  const tools = await mcpStructuredTools(client);
  expectClean();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const echo = byName.get('echo');
  expect(echo).toBeDefined();
  expect(await echo!.invoke({ text: 'x' })).toBeDefined();
  expectClean();
  const message = await echo!.invoke({
    name: 'echo',
    args: { text: 'x' },
    id: 'call-echo',
    type: 'tool_call' as const,
  });
  expect(message).toBeDefined();
  expectClean();
  for (const name of ['refuses', 'fails']) {
    expect(byName.has(name)).toBe(true);
    await byName
      .get(name)
      ?.invoke({ name, args: {}, id: `call-${name}`, type: 'tool_call' as const })
      .catch((e: unknown) => e);
    expectClean();
  }
});
