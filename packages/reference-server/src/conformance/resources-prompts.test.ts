import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../index.ts';
import { TestClient } from '../testing/client.ts';

async function listAll(client: TestClient, method: string, key: string): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: unknown;
  do {
    const page = await client.result(method, cursor === undefined ? {} : { cursor });
    items.push(...(page[key] as unknown[]));
    cursor = page['nextCursor'];
  } while (cursor !== undefined);
  return items;
}

describe('conformance fixture resources', () => {
  it('are listed after the regular ones, each with a name and a description', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url);
    const resources = (await listAll(client, 'resources/list', 'resources')) as Array<
      Record<string, unknown>
    >;
    expect(resources.slice(-3)).toEqual([
      expect.objectContaining({ uri: 'test://static-text', description: expect.any(String) }),
      expect.objectContaining({ uri: 'test://static-binary', description: expect.any(String) }),
      expect.objectContaining({ uri: 'test://watched-resource', description: expect.any(String) }),
    ]);
    const templates = await listAll(client, 'resources/templates/list', 'resourceTemplates');
    expect(templates.at(-1)).toMatchObject({ uriTemplate: 'test://template/{id}/data' });
  });

  it('read as the resources-read and resources-templates-read scenarios name them', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url);
    expect(await client.result('resources/read', { uri: 'test://static-text' })).toEqual({
      contents: [
        {
          uri: 'test://static-text',
          mimeType: 'text/plain',
          text: 'This is the content of the static text resource.',
        },
      ],
    });
    const binary = await client.result('resources/read', { uri: 'test://static-binary' });
    expect(binary['contents']).toEqual([
      { uri: 'test://static-binary', mimeType: 'image/png', blob: expect.any(String) },
    ]);
    const data = await client.result('resources/read', { uri: 'test://template/123/data' });
    const [contents] = data['contents'] as Array<Record<string, unknown>>;
    expect(JSON.parse(String(contents?.['text']))).toEqual({
      id: '123',
      templateTest: true,
      data: 'Data for ID: 123',
    });
  });

  it('test://watched-resource can be subscribed to and unsubscribed from', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url);
    const uri = 'test://watched-resource';
    expect(await client.result('resources/subscribe', { uri })).toEqual({});
    expect(await client.result('resources/unsubscribe', { uri })).toEqual({});
  });

  it('are unknown without conformanceFixtures', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { response } = await client.request('resources/read', { uri: 'test://static-text' });
    expect(response?.error).toMatchObject({ code: -32002 });
  });
});

describe('conformance fixture prompts', () => {
  it('are listed after the regular ones, each with a description', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url);
    const prompts = (await listAll(client, 'prompts/list', 'prompts')) as Array<
      Record<string, unknown>
    >;
    expect(prompts.map((prompt) => prompt['name'])).toEqual([
      'greet',
      'summarize',
      'test_simple_prompt',
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
    ]);
    for (const prompt of prompts) expect(prompt['description']).toEqual(expect.any(String));
  });

  it('expand to the messages the prompts-get scenarios name', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url);
    const simple = await client.result('prompts/get', { name: 'test_simple_prompt' });
    expect(simple['messages']).toEqual([
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
    ]);
    const withArgs = await client.result('prompts/get', {
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'hello', arg2: 'world' },
    });
    expect(withArgs['messages']).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: "Prompt with arguments: arg1='hello', arg2='world'" },
      },
    ]);
    const embedded = await client.result('prompts/get', {
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://example-resource' },
    });
    expect(embedded['messages']).toMatchObject([
      { content: { type: 'resource', resource: { uri: 'test://example-resource' } } },
      { content: { type: 'text' } },
    ]);
    const image = await client.result('prompts/get', { name: 'test_prompt_with_image' });
    expect(image['messages']).toMatchObject([
      { content: { type: 'image', mimeType: 'image/png' } },
      { content: { type: 'text' } },
    ]);
  });

  it('reject a missing required argument with -32602', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url);
    const { response } = await client.request('prompts/get', {
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'only one' },
    });
    expect(response?.error).toMatchObject({ code: -32602 });
  });

  it('can be completed (with no suggestions), as completion-complete asks of any prompt', async () => {
    await using server = await startReferenceServer({ conformanceFixtures: true });
    const client = await TestClient.connect(server.url);
    const result = await client.result('completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'test' },
    });
    expect(result).toEqual({ completion: { values: [], total: 0, hasMore: false } });
  });
});
