import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../index.ts';
import { messagesOf, rpc, TestClient } from '../testing/client.ts';
import { SseReader } from '../testing/sse.ts';

const CONFORMANCE_TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_error_handling',
  'test_tool_with_logging',
  'test_tool_with_progress',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
];

async function toolNames(client: TestClient): Promise<unknown[]> {
  const names: unknown[] = [];
  let cursor: unknown;
  do {
    const page = await client.result('tools/list', cursor === undefined ? {} : { cursor });
    names.push(...(page['tools'] as Array<Record<string, unknown>>).map((tool) => tool['name']));
    cursor = page['nextCursor'];
  } while (cursor !== undefined);
  return names;
}

/** Calls a tool on the SSE endpoint and returns every message of its stream. */
async function callAndRead(client: TestClient, id: number, name: string, meta?: object) {
  const params = { name, arguments: {}, ...(meta === undefined ? {} : { _meta: meta }) };
  const http = await client.post(rpc(id, 'tools/call', params));
  return messagesOf((await new SseReader(http.body).readAll()).events);
}

describe('conformance fixture tools', () => {
  it('are offered only when conformanceFixtures is on: the schema tool first, the rest after the regular tools', async () => {
    await using plain = await startReferenceServer();
    const plainNames = await toolNames(await TestClient.connect(plain.url));
    expect(plainNames.filter((name) => CONFORMANCE_TOOLS.includes(String(name)))).toEqual([]);

    await using server = await startReferenceServer({ conformanceFixtures: true });
    expect(await toolNames(await TestClient.connect(server.url))).toEqual([
      'json_schema_2020_12_tool',
      ...plainNames,
      ...CONFORMANCE_TOOLS,
    ]);
  });

  it('return the content each tools-call scenario names', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url);
    expect(await client.callTool('test_simple_text')).toEqual({
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
    });
    expect(await client.callTool('test_image_content')).toMatchObject({
      content: [{ type: 'image', mimeType: 'image/png', data: expect.any(String) }],
    });
    expect(await client.callTool('test_audio_content')).toMatchObject({
      content: [{ type: 'audio', mimeType: 'audio/wav', data: expect.any(String) }],
    });
    expect(await client.callTool('test_embedded_resource')).toEqual({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    });
    const mixed = await client.callTool('test_multiple_content_types');
    expect(mixed.content.map((block) => block['type'])).toEqual(['text', 'image', 'resource']);
    expect(await client.callTool('test_error_handling')).toEqual({
      content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
      isError: true,
    });
  });

  it('test_tool_with_logging sends three info messages on the call’s stream before its result', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url);
    const messages = await callAndRead(client, 7, 'test_tool_with_logging');
    expect(messages.map((message) => message.params?.['data'] ?? message.id)).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
      7,
    ]);
    expect(messages[0]).toMatchObject({
      method: 'notifications/message',
      params: { level: 'info' },
    });
  });

  it('test_tool_with_logging sends nothing below the level set with logging/setLevel', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url);
    await client.result('logging/setLevel', { level: 'warning' });
    const messages = await callAndRead(client, 8, 'test_tool_with_logging');
    expect(messages.map((message) => message.id)).toEqual([8]);
  });

  it('test_tool_with_progress reports 0, 50 and 100 of 100 when the call carries a token', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url);
    const messages = await callAndRead(client, 9, 'test_tool_with_progress', {
      progressToken: 'p-1',
    });
    const progress = messages.filter((message) => message.method === 'notifications/progress');
    expect(progress.map((message) => message.params)).toEqual([
      { progressToken: 'p-1', progress: 0, total: 100 },
      { progressToken: 'p-1', progress: 50, total: 100 },
      { progressToken: 'p-1', progress: 100, total: 100 },
    ]);
    expect(messages.at(-1)).toMatchObject({ id: 9, result: { content: [{ type: 'text' }] } });
  });

  it('test_tool_with_progress sends no progress without a token', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url);
    const messages = await callAndRead(client, 10, 'test_tool_with_progress');
    expect(messages.map((message) => message.id)).toEqual([10]);
  });
});
