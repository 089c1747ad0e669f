import type { Tool, ToolSource } from '@toolwire/client';
import { expect, test } from 'vitest';
import { mcpInterruptOn } from './interrupt-on.ts';
import { mcpStructuredTools } from './tools.ts';

function lister(tools: Tool[]): ToolSource {
  return { url: 'http://localhost/mcp', listTools: async () => tools } as unknown as ToolSource;
}

/** `{ type: 'object', properties: { d: ... } }`, `levels` times over. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < levels; level++) {
    schema = { type: 'object', properties: { d: schema } };
  }
  return schema;
}

test('one schema nested far too deep is shown open; the other tools are built as ever', async () => {
  const tools = await mcpStructuredTools(
    lister([
      { name: 'deep', inputSchema: nested(20_000) },
      { name: 'ok', inputSchema: nested(3) },
    ]),
  );
  expect(tools.map((tool) => [tool.name, tool.schema])).toEqual([
    ['deep', { type: 'object', properties: {} }],
    ['ok', nested(3)],
  ]);
});

test('mcpInterruptOn keeps tools named __proto__ and constructor as its own entries', async () => {
  const schema = { type: 'object', properties: {} };
  const tools = await mcpStructuredTools(
    lister([
      { name: '__proto__', inputSchema: schema },
      { name: 'constructor', inputSchema: schema },
    ]),
  );
  const interruptOn = mcpInterruptOn(tools);
  expect(Object.getPrototypeOf(interruptOn)).toBe(Object.prototype);
  expect(Object.keys(interruptOn).sort()).toEqual(['__proto__', 'constructor']);
});
