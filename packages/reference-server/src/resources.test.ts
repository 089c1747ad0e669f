import { describe, expect, it } from 'vitest';
import { startReferenceServer } from './index.ts';
import { TestClient } from './testing/client.ts';

async function collect(
  client: TestClient,
  method: string,
  key: string,
): Promise<{ items: unknown[]; pages: number }> {
  const items: unknown[] = [];
  let cursor: unknown;
  let pages = 0;
  do {
    const page = await client.result(method, cursor === undefined ? {} : { cursor });
    items.push(...(page[key] as unknown[]));
    cursor = page['nextCursor'];
    pages++;
  } while (cursor !== undefined);
  return { items, pages };
}

describe('resources', () => {
  it('resources/list spans several pages and lists the static, counter and item resources', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { items, pages } = await collect(client, 'resources/list', 'resources');
    expect(pages).toBe(3);
    const uris = (items as Array<{ uri: string }>).map((resource) => resource.uri);
    expect(uris).toEqual([
      'ref://static/hello',
      'ref://static/blob',
      'ref://counter',
      ...Array.from({ length: 12 }, (_, i) => `ref://items/${i + 1}`),
    ]);
  });

  it('pageSize changes how many items a page holds', async () => {
    await using server = await startReferenceServer({ pageSize: 100 });
    const client = await TestClient.connect(server.url);
    const page = await client.result('resources/list');
    expect(page['resources']).toHaveLength(15);
    expect(page['nextCursor']).toBeUndefined();
  });

  it('an invalid or foreign cursor is -32602', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const garbage = await client.request('tools/list', { cursor: 'not-a-cursor' });
    expect(garbage.response?.error?.code).toBe(-32602);
    const { nextCursor } = await client.result('tools/list');
    const foreign = await client.request('resources/list', { cursor: nextCursor });
    expect(foreign.response?.error?.code).toBe(-32602);
  });

  it('resources/templates/list offers ref://items/{id}', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { resourceTemplates } = await client.result('resources/templates/list');
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'ref://items/{id}' }),
    ]);
  });

  it('resources/read returns text and blob contents', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    expect(await client.result('resources/read', { uri: 'ref://static/hello' })).toEqual({
      contents: [{ uri: 'ref://static/hello', mimeType: 'text/plain', text: 'hello, world' }],
    });
    const blob = await client.result('resources/read', { uri: 'ref://static/blob' });
    const [contents] = blob['contents'] as Array<{ blob: string; mimeType: string }>;
    expect(contents?.mimeType).toBe('application/octet-stream');
    expect([...Buffer.from(contents?.blob ?? '', 'base64')]).toEqual(
      Array.from({ length: 16 }, (_, i) => i),
    );
  });

  it('the item template serves any positive integer id, even beyond the listed twelve', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const read = await client.result('resources/read', { uri: 'ref://items/12345' });
    expect(read['contents']).toEqual([
      { uri: 'ref://items/12345', mimeType: 'text/plain', text: 'item 12345' },
    ]);
  });

  it('an unknown resource is -32002 with the URI in data', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    for (const uri of ['ref://nowhere', 'ref://items/0', 'ref://items/x']) {
      const { response } = await client.request('resources/read', { uri });
      expect(response?.error).toEqual({ code: -32002, message: expect.any(String), data: { uri } });
    }
  });
});

describe('prompts', () => {
  it('prompts/list describes greet and summarize with their arguments', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { prompts } = await client.result('prompts/list');
    expect(prompts).toEqual([
      expect.objectContaining({
        name: 'greet',
        arguments: [
          expect.objectContaining({ name: 'name', required: true }),
          expect.objectContaining({ name: 'style', required: false }),
        ],
      }),
      expect.objectContaining({
        name: 'summarize',
        arguments: [expect.objectContaining({ name: 'text', required: true })],
      }),
    ]);
  });

  it('prompts/get returns one user message whose text depends on the arguments', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const texts = new Set<string>();
    for (const style of [undefined, 'formal', 'casual', 'pirate']) {
      const args = style === undefined ? { name: 'Ada' } : { name: 'Ada', style };
      const { messages } = await client.result('prompts/get', { name: 'greet', arguments: args });
      const [message] = messages as Array<{
        role: string;
        content: { type: string; text: string };
      }>;
      expect(message?.role).toBe('user');
      expect(message?.content.text).toContain('Ada');
      texts.add(message?.content.text ?? '');
    }
    expect(texts.size).toBe(4);
    const summary = await client.result('prompts/get', {
      name: 'summarize',
      arguments: { text: 'A long story.' },
    });
    expect(JSON.stringify(summary['messages'])).toContain('A long story.');
  });

  it('a missing required argument, an unknown style or an unknown prompt is -32602', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    for (const params of [
      { name: 'greet', arguments: {} },
      { name: 'greet', arguments: { name: 'Ada', style: 'shouty' } },
      { name: 'summarize' },
      { name: 'nope', arguments: {} },
    ]) {
      const { response } = await client.request('prompts/get', params);
      expect(response?.error?.code, JSON.stringify(params)).toBe(-32602);
    }
  });
});

describe('completion and logging', () => {
  it('completes the greet style argument by prefix', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const all = await client.result('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'style', value: '' },
    });
    expect(all['completion']).toEqual({
      values: ['formal', 'casual', 'pirate'],
      total: 3,
      hasMore: false,
    });
    const some = await client.result('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'style', value: 'p' },
    });
    expect(some['completion']).toMatchObject({ values: ['pirate'] });
  });

  it('completes the item template id by prefix', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const result = await client.result('completion/complete', {
      ref: { type: 'ref/resource', uri: 'ref://items/{id}' },
      argument: { name: 'id', value: '1' },
    });
    expect(result['completion']).toEqual({
      values: ['1', '10', '11', '12'],
      total: 4,
      hasMore: false,
    });
  });

  it('completion for an unknown prompt is -32602', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { response } = await client.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'nope' },
      argument: { name: 'x', value: '' },
    });
    expect(response?.error?.code).toBe(-32602);
  });

  it('logging/setLevel with an unknown level is -32602', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { response } = await client.request('logging/setLevel', { level: 'loud' });
    expect(response?.error?.code).toBe(-32602);
  });
});
