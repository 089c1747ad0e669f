import { describe, expect, it } from 'vitest';
import { startReferenceServer } from './index.ts';
import { firstText, messagesOf, readExchange, rpc, TestClient } from './testing/client.ts';

const ALL_TOOLS = [
  'echo',
  'add',
  'bad_structure',
  'progress',
  'slow',
  'fail',
  'media',
  'count',
  'toggle_tool',
  'ping_client',
  'log',
  'large',
  'bump',
  'elicit',
  'elicit_url',
  'sample',
  'list_roots',
  'survey',
  'slow_task',
  'task_required',
  'task_needs_input',
  'task_fails',
];

async function listAllTools(client: TestClient): Promise<Array<Record<string, unknown>>> {
  const tools: Array<Record<string, unknown>> = [];
  let cursor: unknown;
  do {
    const page = await client.result('tools/list', cursor === undefined ? {} : { cursor });
    tools.push(...(page['tools'] as Array<Record<string, unknown>>));
    cursor = page['nextCursor'];
  } while (cursor !== undefined);
  return tools;
}

describe('fixture tools', () => {
  it('tools/list pages through every tool, each with a description and an object input schema', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const first = await client.result('tools/list');
    expect(first['tools']).toHaveLength(5);
    expect(typeof first['nextCursor']).toBe('string');
    const tools = await listAllTools(client);
    expect(tools.map((tool) => tool['name'])).toEqual(ALL_TOOLS);
    for (const tool of tools) {
      expect(tool['description'], String(tool['name'])).toEqual(expect.any(String));
      expect(tool['inputSchema'], String(tool['name'])).toMatchObject({ type: 'object' });
    }
    const byName = new Map(tools.map((tool) => [tool['name'], tool]));
    expect(byName.get('echo')?.['annotations']).toMatchObject({
      readOnlyHint: true,
      idempotentHint: true,
    });
    expect(byName.get('count')?.['annotations']).toMatchObject({ idempotentHint: false });
    expect(byName.get('add')?.['outputSchema']).toEqual({
      type: 'object',
      properties: { sum: { type: 'number' } },
      required: ['sum'],
    });
    expect(byName.get('bad_structure')?.['outputSchema']).toEqual(
      byName.get('add')?.['outputSchema'],
    );
  });

  it('echo returns its text', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    expect(await client.callTool('echo', { text: 'héllo ✓' })).toEqual({
      content: [{ type: 'text', text: 'héllo ✓' }],
    });
  });

  it('add returns the sum as structured content and as JSON text', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const result = await client.callTool('add', { a: 2, b: 40.5 });
    expect(result.structuredContent).toEqual({ sum: 42.5 });
    expect(JSON.parse(firstText(result))).toEqual({ sum: 42.5 });
  });

  it('bad_structure returns structured content that violates its own output schema', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const result = await client.callTool('bad_structure');
    expect(result.structuredContent).toEqual({ sum: 'not a number' });
  });

  it('progress reports each step, then says how many steps it did', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const http = await client.post(
      rpc(1, 'tools/call', {
        name: 'progress',
        arguments: { steps: 2 },
        _meta: { progressToken: 42 },
      }),
    );
    const { messages, response } = await readExchange(http, 1);
    expect(
      messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params),
    ).toEqual([
      { progressToken: 42, progress: 1, total: 2, message: 'step 1' },
      { progressToken: 42, progress: 2, total: 2, message: 'step 2' },
    ]);
    expect(response?.result).toEqual({ content: [{ type: 'text', text: 'done after 2 steps' }] });
  });

  it('progress sends no notifications when the request has no progress token', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { messages } = await client.request('tools/call', {
      name: 'progress',
      arguments: { steps: 2, delayMs: 0 },
    });
    expect(messages.map((message) => message.method)).toEqual([undefined]);
  });

  it('slow answers after sleeping', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    expect(firstText(await client.callTool('slow', { ms: 1 }))).toBe('slept 1 ms');
  });

  it('fail returns a tool execution error with its message', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    expect(await client.callTool('fail', { message: 'boom' })).toEqual({
      content: [{ type: 'text', text: 'boom' }],
      isError: true,
    });
    expect((await client.callTool('fail')).isError).toBe(true);
  });

  it('media returns a valid PNG image, a valid WAV clip, a resource link and an embedded resource', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { content } = await client.callTool('media');
    expect(content.map((block) => block['type'])).toEqual([
      'image',
      'audio',
      'resource_link',
      'resource',
    ]);
    const [image, audio, link, embedded] = content;
    expect(image?.['mimeType']).toBe('image/png');
    const png = Buffer.from(String(image?.['data']), 'base64');
    expect(png.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect(audio?.['mimeType']).toBe('audio/wav');
    const wav = Buffer.from(String(audio?.['data']), 'base64');
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.subarray(8, 12).toString('ascii')).toBe('WAVE');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(link).toMatchObject({
      uri: 'ref://static/hello',
      name: expect.any(String),
      mimeType: 'text/plain',
    });
    expect(embedded).toEqual({
      type: 'resource',
      resource: { uri: 'ref://static/hello', mimeType: 'text/plain', text: 'hello, world' },
    });
  });

  it('count increments once per call, across sessions', async () => {
    await using server = await startReferenceServer();
    const first = await TestClient.connect(server.url);
    const second = await TestClient.connect(server.urls.statefulJson);
    expect(firstText(await first.callTool('count'))).toBe('1');
    expect(firstText(await second.callTool('count'))).toBe('2');
    expect(firstText(await first.callTool('count'))).toBe('3');
  });

  it('toggle_tool adds the bonus tool, which echoes "bonus", and removes it again', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    expect(firstText(await client.callTool('toggle_tool'))).toBe('bonus tool added');
    expect((await listAllTools(client)).map((tool) => tool['name'])).toContain('bonus');
    expect(firstText(await client.callTool('bonus'))).toBe('bonus');
    await client.callTool('toggle_tool');
    expect((await listAllTools(client)).map((tool) => tool['name'])).not.toContain('bonus');
    const { response } = await client.request('tools/call', { name: 'bonus', arguments: {} });
    expect(response?.error?.code).toBe(-32602);
  });

  it('log emits notifications/message at the requested level', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { messages, response } = await client.request('tools/call', {
      name: 'log',
      arguments: { level: 'debug', message: 'details' },
    });
    expect(messages[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'debug', logger: 'reference-server', data: 'details' },
    });
    expect(response?.result).toEqual({ content: [{ type: 'text', text: 'logged' }] });
  });

  it('log honours the threshold set with logging/setLevel', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    expect(await client.result('logging/setLevel', { level: 'warning' })).toEqual({});
    const quiet = await client.request('tools/call', {
      name: 'log',
      arguments: { level: 'info', message: 'too low' },
    });
    expect(quiet.messages.map((message) => message.method)).toEqual([undefined]);
    const loud = await client.request('tools/call', {
      name: 'log',
      arguments: { level: 'error', message: 'high enough' },
    });
    expect(loud.messages[0]?.params).toMatchObject({ level: 'error', data: 'high enough' });
  });

  it('log messages go to the GET stream when one is open', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { reader } = await client.get();
    const { messages } = await client.request('tools/call', {
      name: 'log',
      arguments: { level: 'notice', message: 'elsewhere' },
    });
    expect(messages.map((message) => message.method)).toEqual([undefined]);
    const events = await reader.readUntil((event) => event.data.includes('elsewhere'));
    expect(messagesOf(events).at(-1)?.method).toBe('notifications/message');
    await reader.cancel();
  });

  it('large returns exactly the requested number of ASCII characters', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    for (const bytes of [0, 1, 1000, 1_000_000]) {
      const text = firstText(await client.callTool('large', { bytes }));
      expect(text.length).toBe(bytes);
      expect(/^[\x20-\x7e\n]*$/.test(text)).toBe(true);
    }
  });

  it('bump raises ref://counter and notifies the sessions subscribed to it', async () => {
    await using server = await startReferenceServer();
    const subscriber = await TestClient.connect(server.url);
    const bystander = await TestClient.connect(server.url);
    expect(await subscriber.result('resources/subscribe', { uri: 'ref://counter' })).toEqual({});
    const { reader } = await subscriber.get();
    const bump = await bystander.request('tools/call', { name: 'bump', arguments: {} });
    // The caller did not subscribe, so its own stream carries only the response.
    expect(bump.messages).toEqual([
      {
        jsonrpc: '2.0',
        id: expect.any(Number),
        result: { content: [{ type: 'text', text: 'counter is now 1' }] },
      },
    ]);
    const events = await reader.readUntil((event) => event.data.includes('updated'));
    expect(messagesOf(events).at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'ref://counter' },
    });
    const read = await subscriber.result('resources/read', { uri: 'ref://counter' });
    expect(read['contents']).toEqual([{ uri: 'ref://counter', mimeType: 'text/plain', text: '1' }]);
    await subscriber.result('resources/unsubscribe', { uri: 'ref://counter' });
    const after = await subscriber.request('tools/call', { name: 'bump', arguments: {} });
    expect(after.messages.map((message) => message.method)).toEqual([undefined]);
    await reader.cancel();
  });

  it('an unknown tool is a JSON-RPC error -32602', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { response } = await client.request('tools/call', { name: 'nope', arguments: {} });
    expect(response?.error?.code).toBe(-32602);
  });

  it('arguments that do not match the input schema give a tool execution error', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const wrongType = await client.callTool('add', { a: 1, b: 'two' });
    expect(wrongType.isError).toBe(true);
    expect(firstText(wrongType)).toContain('"b"');
    expect((await client.callTool('echo', {})).isError).toBe(true);
    expect((await client.callTool('log', { level: 'loud', message: 'x' })).isError).toBe(true);
    expect((await client.callTool('count', { extra: true })).isError).toBe(true);
  });
});
