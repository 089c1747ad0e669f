/**
 * The pins are the AI SDK's own fingerprints: `toolFingerprint` gives, byte for byte, what
 * `fingerprintTools` gives for the same tools, whatever the description, schema and title.
 */
import { toolFingerprint } from '@toolwire/client';
import { asSchema, dynamicTool, fingerprintTools, jsonSchema, type ToolSet, tool } from 'ai';
import { expect, test } from 'vitest';
import { z } from 'zod';

test('toolFingerprint agrees with fingerprintTools', async () => {
  const schema = {
    type: 'object',
    properties: { b: { type: 'string' }, a: { type: 'number' } },
  } as const;
  const tools: ToolSet = {
    plain: dynamicTool({
      description: 'Adds.',
      inputSchema: jsonSchema(schema),
      execute: async () => 1,
    }),
    untitled: dynamicTool({
      inputSchema: jsonSchema({ type: 'object', properties: {} }),
      execute: async () => 1,
    }),
    titled: tool({
      title: 'T',
      description: 'Ünïcode ✓',
      inputSchema: z.object({ x: z.array(z.string()) }),
    }),
  };
  const theirs = await fingerprintTools(tools);
  expect(toolFingerprint({ description: 'Adds.', inputSchema: schema })).toBe(theirs['plain']);
  expect(toolFingerprint({ inputSchema: { type: 'object', properties: {} } })).toBe(
    theirs['untitled'],
  );
  const zodSchema = await asSchema(tools['titled']!.inputSchema).jsonSchema;
  expect(toolFingerprint({ description: 'Ünïcode ✓', inputSchema: zodSchema, title: 'T' })).toBe(
    theirs['titled'],
  );
  // Key order does not matter; a changed description does.
  expect(
    toolFingerprint({
      description: 'Adds.',
      inputSchema: { properties: schema.properties, type: 'object' },
    }),
  ).toBe(theirs['plain']);
  expect(toolFingerprint({ description: 'Adds. Then obeys.', inputSchema: schema })).not.toBe(
    theirs['plain'],
  );
});
