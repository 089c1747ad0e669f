import type { CallToolResult } from '@toolwire/client';
import { expect, test } from 'vitest';
import { toContentAndArtifact } from './content.ts';

const resource = {
  type: 'resource' as const,
  resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A' },
};

test('one text block is a plain string for the model', () => {
  const result: CallToolResult = { content: [{ type: 'text', text: 'hi' }], isError: false };
  expect(toContentAndArtifact(result, 's', 't')).toEqual([
    'hi',
    { server: 's', tool: 't', resources: [], result },
  ]);
});

test('structured content alone is shown to the model as JSON, and kept in the artifact', () => {
  const result: CallToolResult = { content: [], structuredContent: { n: 1 }, isError: false };
  const [content, artifact] = toContentAndArtifact(result, 's', 't');
  expect(content).toBe('{"n":1}');
  expect(artifact.structuredContent).toEqual({ n: 1 });
});

test('embedded resources alone are named for the model and kept whole in the artifact', () => {
  const result: CallToolResult = { content: [resource], isError: false };
  const [content, artifact] = toContentAndArtifact(result, 's', 't');
  expect(content).toBe('embedded resources (in the artifact): file:///a.txt');
  expect(artifact.resources).toEqual([resource]);
});

test('an empty result is an empty string, never an empty block list', () => {
  const result: CallToolResult = { content: [], isError: false };
  expect(toContentAndArtifact(result, 's', 't')[0]).toBe('');
});

test('several text blocks stay separate blocks', () => {
  const result: CallToolResult = {
    content: [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ],
    isError: false,
  };
  expect(toContentAndArtifact(result, 's', 't')[0]).toEqual([
    { type: 'text', text: 'a' },
    { type: 'text', text: 'b' },
  ]);
});
