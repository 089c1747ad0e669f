import { ToolInputParsingException } from '@langchain/core/tools';
import type { Tool, ToolSource } from '@toolwire/client';
import { expect, test } from 'vitest';
import { mcpStructuredTools } from './tools.ts';

/** A client that lists `tools`; a call that gets through answers "sent". */
function lister(tools: Tool[]): ToolSource & { sent: unknown[] } {
  const sent: unknown[] = [];
  return {
    url: 'http://localhost/mcp',
    sent,
    listTools: async () => tools,
    callTool: async (_name: string, args: unknown) => {
      sent.push(args);
      return { content: [{ type: 'text', text: 'sent' }] };
    },
  } as unknown as ToolSource & { sent: unknown[] };
}

test('arguments are checked against the original schema, every problem named, nothing sent', async () => {
  const inputSchema = {
    type: 'object',
    properties: { shape: { $ref: '#/$defs/circle' }, unit: { enum: ['cm', 'in'] } },
    required: ['shape'],
    additionalProperties: false,
    $defs: { circle: { type: 'object', required: ['radius'] } },
  };
  const client = lister([{ name: 'draw', inputSchema }]);
  const [draw] = await mcpStructuredTools(client);
  const bad = draw!.invoke({ shape: {}, unit: 'mm', extra: true });
  await expect(bad).rejects.toThrow(ToolInputParsingException);
  await expect(bad).rejects.toThrow(/\/shape is missing "radius"/);
  await expect(bad).rejects.toThrow(/\/unit must be one of \["cm","in"\]/);
  await expect(bad).rejects.toThrow(/\(the arguments\) has an unexpected property "extra"/);
  expect(client.sent).toEqual([]);
  await expect(draw!.invoke({ shape: { radius: 1 } })).resolves.toBe('sent');
});

test('a schema ajv cannot compile (a remote $ref) is checked through its inlined form', async () => {
  const inputSchema = {
    type: 'object',
    properties: { a: { $ref: 'https://example.com/a.json' }, n: { type: 'integer' } },
    required: ['n'],
  };
  const client = lister([{ name: 'remote', inputSchema }]);
  const [remote] = await mcpStructuredTools(client);
  await expect(remote!.invoke({ a: 'anything' })).rejects.toThrow(
    /\(the arguments\) is missing "n"/,
  );
  await expect(remote!.invoke({ a: 'anything', n: 1 })).resolves.toBe('sent');
  expect(client.sent).toEqual([{ a: 'anything', n: 1 }]);
});
