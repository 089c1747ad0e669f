import type { Tool as McpTool, ToolSource } from '@toolwire/client';
import { expect, test } from 'vitest';
import { mcpToolApproval } from './approval.ts';
import { mcpTools } from './tool-set.ts';

/** A client that lists `tools` and nothing else: building a set asks no more of it. */
function lister(tools: McpTool[]): ToolSource {
  return { url: 'http://localhost/mcp', listTools: async () => tools } as unknown as ToolSource;
}

const schema = { type: 'object', properties: {} };
const RESERVED = ['__proto__', 'constructor', 'prototype', 'toString'];

test('tools named like Object.prototype members are own tools of an ordinary set', async () => {
  const tools = await mcpTools(lister(RESERVED.map((name) => ({ name, inputSchema: schema }))));
  expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
  expect(Object.keys(tools).sort()).toEqual([...RESERVED].sort());
  for (const name of RESERVED) expect(Object.hasOwn(tools[name] ?? {}, 'execute')).toBe(true);
  expect(Object.keys(mcpToolApproval(tools)).sort()).toEqual([...RESERVED].sort());
});

test('a tool named constructor is not taken for a typed one, and exclude still drops it', async () => {
  const listed = [{ name: 'constructor', inputSchema: schema }];
  expect(Object.keys(await mcpTools(lister(listed), { exclude: ['constructor'] }))).toEqual([]);
});

test('a schema nested past the bound is shown as an open object; the tools beside it are kept', async () => {
  let deep: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < 20_000; level++) deep = { type: 'object', properties: { d: deep } };
  const near = { type: 'object', properties: { a: { type: 'string' } } };
  const tools = await mcpTools(
    lister([
      { name: 'deep', inputSchema: deep },
      { name: 'near', inputSchema: near },
    ]),
  );
  const shown = (name: string) => (tools[name]!.inputSchema as { jsonSchema: unknown }).jsonSchema;
  expect(shown('deep')).toEqual({ type: 'object', properties: {} });
  expect(shown('near')).toEqual(near);
});
