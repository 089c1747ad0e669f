/**
 * What tool definitions cost a model, measured on real servers: the official "everything" server
 * (HTTP) and the memory server (stdio), their tools as the AI SDK adapter sends them, counted
 * with both real tokenizers, without and with `slim`. Slim definitions must cost less and still
 * take every call the full schema takes, and refuse what it refuses.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpTools, mcpToolTokens } from '@toolwire/ai-sdk';
import { createMcpClient, type JsonObject } from '@toolwire/client';
import { asSchema, type ToolSet } from 'ai';
import { expect, test } from 'vitest';
import { startEverythingServer } from '../helpers/everything-server.ts';
import { binOf } from '../helpers/stdio.ts';

/** Each tool's cost goes down or stays, and the whole set costs less, with either tokenizer. */
async function expectSavings(full: ToolSet, slim: ToolSet, label: string): Promise<void> {
  for (const tokenizer of ['o200k', 'claude'] as const) {
    const before = await mcpToolTokens(full, { tokenizer });
    const after = await mcpToolTokens(slim, { tokenizer });
    // The figures in docs/adapters.md come from this line.
    console.info(`${label} ${tokenizer}: ${before.total} -> ${after.total} tokens`);
    expect(after.tools.map((tool) => tool.name)).toEqual(before.tools.map((tool) => tool.name));
    for (const [index, tool] of after.tools.entries()) {
      expect(tool.tokens, tool.name).toBeLessThanOrEqual(before.tools[index]!.tokens);
    }
    expect(after.total).toBeLessThan(before.total);
    expect(Object.values(after.servers).reduce((a, b) => a + b, 0)).toBe(after.total);
  }
}

/** The call through the adapter: the AI SDK's check of the input (the server's full schema), then execute. */
async function call(tools: ToolSet, name: string, input: JsonObject) {
  const tool = tools[name]!;
  const checked = await asSchema(tool.inputSchema).validate!(input);
  if (!checked.success) throw checked.error;
  return tool.execute!(input, {
    toolCallId: `call-${name}`,
    messages: [],
    context: {},
  }) as Promise<{
    isError?: boolean;
    content: Array<{ type: string; text?: string }>;
  }>;
}

test('the everything server: slim definitions cost fewer tokens, and every test call is still accepted', async () => {
  await using server = await startEverythingServer();
  await using client = createMcpClient(server.url);
  const full = await mcpTools(client);
  const slim = await mcpTools(client, { slim: true });
  await expectSavings(full, slim, 'everything');

  // Slim drops the dialect marker; what checks a value (default, bounds) stays for the model.
  const shown = (await asSchema(slim['get-resource-links']!.inputSchema).jsonSchema) as JsonObject;
  expect(shown).not.toHaveProperty('$schema');
  expect(shown['properties']).toMatchObject({ count: { default: 3, minimum: 1, maximum: 10 } });

  const calls: Array<[string, JsonObject, string | undefined]> = [
    ['echo', { message: 'hi' }, 'Echo: hi'],
    ['get-sum', { a: 2, b: 3 }, 'The sum of 2 and 3 is 5.'],
    ['get-annotated-message', { messageType: 'success', includeImage: true }, undefined],
    ['get-resource-links', { count: 2 }, undefined],
    ['get-resource-reference', { resourceType: 'Text', resourceId: 1 }, undefined],
    ['get-structured-content', { location: 'Chicago' }, undefined],
    ['get-tiny-image', {}, undefined],
    ['get-env', {}, undefined],
    ['trigger-long-running-operation', { duration: 0.1, steps: 1 }, undefined],
  ];
  for (const [name, input, text] of calls) {
    const result = await call(slim, name, input);
    expect(result.isError ?? false, name).toBe(false);
    expect(result.content.length, name).toBeGreaterThan(0);
    if (text !== undefined) expect(result.content[0]?.text).toBe(text);
  }
  // The full schema still has the last word: a bound the model is shown is also enforced.
  await expect(call(slim, 'get-resource-links', { count: 11 })).rejects.toThrow(/count/);
  await expect(call(slim, 'get-sum', { a: 'two', b: 3 })).rejects.toThrow(/a must be number/);
}, 60_000);

test('the memory server: slim definitions cost fewer tokens, and its calls are still accepted', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolwire-tool-cost-'));
  try {
    await using client = createMcpClient({
      command: process.execPath,
      args: [binOf('@modelcontextprotocol/server-memory')],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    });
    const full = await mcpTools(client);
    const slim = await mcpTools(client, { slim: true });
    await expectSavings(full, slim, 'memory');

    const created = await call(slim, 'create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    });
    expect(created.isError ?? false).toBe(false);
    const related = await call(slim, 'create_relations', {
      relations: [{ from: 'Ada', to: 'Ada', relationType: 'knows' }],
    });
    expect(related.isError ?? false).toBe(false);
    const found = await call(slim, 'search_nodes', { query: 'Ada' });
    expect(JSON.stringify(found.content)).toContain('wrote the first program');
    const graph = await call(slim, 'read_graph', {});
    expect(JSON.stringify(graph.content)).toContain('knows');
    await expect(call(slim, 'create_entities', { entities: [{ name: 'Bo' }] })).rejects.toThrow(
      /entityType/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);
