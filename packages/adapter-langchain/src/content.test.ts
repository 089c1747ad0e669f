import type { CallToolResult } from '@toolwire/client';
import { expect, test } from 'vitest';
import { toContentAndArtifact } from './content.ts';

const resource = {
  type: 'resource' as const,
  resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A' },
};

test('one text block is a plain string for the model', () => {
  const result: CallToolResult = { content: [{ type: 'text', text: 'hi' }], isError: false };
  expect(toContentAndArtifact(result, { server: 's', tool: 't' })).toEqual([
    'hi',
    { server: 's', tool: 't', resources: [], result },
  ]);
});

test('structured content alone is shown to the model as JSON, and kept in the artifact', () => {
  const result: CallToolResult = { content: [], structuredContent: { n: 1 }, isError: false };
  const [content, artifact] = toContentAndArtifact(result, { server: 's', tool: 't' });
  expect(content).toBe('{"n":1}');
  expect(artifact.structuredContent).toEqual({ n: 1 });
});

test('structured content the text already renders reaches the model once: the text', () => {
  for (const structuredContent of [{ sum: 5 }, { content: '{"sum":5}' }]) {
    const result: CallToolResult = {
      content: [{ type: 'text', text: '{"sum":5}' }],
      structuredContent,
      isError: false,
    };
    const [content, artifact] = toContentAndArtifact(result, { server: 's', tool: 't' });
    expect(content).toBe('{"sum":5}');
    expect(artifact.structuredContent).toEqual(structuredContent);
  }
});

test('embedded resources reach the model as v1 blocks and stay whole in the artifact', () => {
  const blob = (mimeType: string) => ({
    type: 'resource' as const,
    resource: { uri: `file:///b.${mimeType.split('/')[1]}`, mimeType, blob: 'AAEC' },
  });
  const result: CallToolResult = {
    content: [resource, blob('image/png'), blob('video/mp4'), blob('application/pdf')],
    isError: false,
  };
  const [content, artifact] = toContentAndArtifact(result, { server: 's', tool: 't' });
  expect(content).toEqual([
    { type: 'text-plain', text: 'A', mimeType: 'text/plain', title: 'file:///a.txt' },
    { type: 'image', data: 'AAEC', mimeType: 'image/png' },
    { type: 'video', data: 'AAEC', mimeType: 'video/mp4' },
    { type: 'file', data: 'AAEC', mimeType: 'application/pdf' },
  ]);
  expect(artifact.resources).toEqual(result.content);
});

test("with resources: 'artifact', embedded resources are named for the model and kept in the artifact", () => {
  const result: CallToolResult = { content: [resource], isError: false };
  const [content, artifact] = toContentAndArtifact(result, {
    server: 's',
    tool: 't',
    resources: 'artifact',
  });
  expect(content).toBe('embedded resources (in the artifact): file:///a.txt');
  expect(artifact.resources).toEqual([resource]);
});

test('a link a provider can fetch is a file block by URL; any other is a line naming it', () => {
  const result: CallToolResult = {
    content: [
      {
        type: 'resource_link',
        uri: 'https://example.com/r.pdf',
        name: 'r',
        mimeType: 'application/pdf',
        title: 'Report',
      },
      { type: 'resource_link', uri: 'ref://static/hello', name: 'hello', mimeType: 'text/plain' },
    ],
    isError: false,
  };
  expect(toContentAndArtifact(result, { server: 's', tool: 't' })[0]).toEqual([
    {
      type: 'file',
      url: 'https://example.com/r.pdf',
      mimeType: 'application/pdf',
      metadata: { name: 'r', title: 'Report' },
    },
    { type: 'text', text: 'resource link: hello <ref://static/hello>, text/plain' },
  ]);
});

test('an empty result is an empty string, never an empty block list', () => {
  const result: CallToolResult = { content: [], isError: false };
  expect(toContentAndArtifact(result, { server: 's', tool: 't' })[0]).toBe('');
});

test('several text blocks stay separate blocks', () => {
  const result: CallToolResult = {
    content: [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ],
    isError: false,
  };
  expect(toContentAndArtifact(result, { server: 's', tool: 't' })[0]).toEqual([
    { type: 'text', text: 'a' },
    { type: 'text', text: 'b' },
  ]);
});
