import type { Tool, ToolSource } from '@toolwire/client';
import { expect, test } from 'vitest';
import { mcpStructuredTools } from './tools.ts';

function lister(names: string[]): ToolSource {
  const tools: Tool[] = names.map((name) => ({ name, inputSchema: { type: 'object' } }));
  return { url: 'http://localhost/mcp', listTools: async () => tools } as unknown as ToolSource;
}

test('names are the client’s provider-safe names: prefixed, a safe name never given away', async () => {
  const tools = await mcpStructuredTools(lister(['a.b', 'a_b', 'c']), { prefix: 'srv_' });
  const [repaired, safe, plain] = tools.map((tool) => tool.name);
  expect(safe).toBe('srv_a_b');
  expect(plain).toBe('srv_c');
  expect(repaired).toMatch(/^srv_a_b_[a-z0-9]+$/);
  expect(tools.map((tool) => tool.definition.name)).toEqual(['a.b', 'a_b', 'c']);
});

test('with safe names off, names are only prefixed', async () => {
  const tools = await mcpStructuredTools(lister(['files.read']), {
    prefix: 'x:',
    safeNames: false,
  });
  expect(tools.map((tool) => tool.name)).toEqual(['x:files.read']);
});
