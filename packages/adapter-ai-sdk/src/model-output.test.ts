import type { CallToolResult } from '@toolwire/client';
import { expect, test } from 'vitest';
import { toModelOutput } from './model-output.ts';

const base64 = (text: string) => btoa(text);

test('structuredContent is added when the content is only a summary', () => {
  const result: CallToolResult = {
    content: [{ type: 'text', text: 'found 2 cities' }],
    structuredContent: { cities: ['Oslo', 'Bergen'] },
    isError: false,
  };
  expect(toModelOutput(result)).toEqual({
    type: 'content',
    value: [
      { type: 'text', text: 'found 2 cities' },
      { type: 'text', text: '{"cities":["Oslo","Bergen"]}' },
    ],
  });
});

test('structuredContent the text already carries (formatted differently) is not repeated', () => {
  const result: CallToolResult = {
    content: [{ type: 'text', text: '{ "sum": 5 }' }],
    structuredContent: { sum: 5 },
    isError: false,
  };
  expect(toModelOutput(result)).toEqual({ type: 'text', value: '{ "sum": 5 }' });
});

test('structuredContent { content } whose content the text already is, is not repeated', () => {
  const result: CallToolResult = {
    content: [{ type: 'text', text: 'Echo: hi' }],
    structuredContent: { content: 'Echo: hi' },
    isError: false,
  };
  expect(toModelOutput(result)).toEqual({ type: 'text', value: 'Echo: hi' });
  // With more beside `content`, the text does not say it all: the structured part goes too.
  const more = { ...result, structuredContent: { content: 'Echo: hi', at: 1 } };
  expect(toModelOutput(more)).toEqual({
    type: 'content',
    value: [
      { type: 'text', text: 'Echo: hi' },
      { type: 'text', text: '{"content":"Echo: hi","at":1}' },
    ],
  });
});

test('a structured-only result is its JSON', () => {
  expect(toModelOutput({ content: [], structuredContent: { ok: true }, isError: false })).toEqual({
    type: 'text',
    value: '{"ok":true}',
  });
  expect(toModelOutput({ content: [], isError: false })).toEqual({ type: 'text', value: '' });
});

test('an embedded blob is media, decoded text or a note, by its MIME type', () => {
  const result: CallToolResult = {
    isError: false,
    content: [
      {
        type: 'resource',
        resource: { uri: 'file:///a/chart.png', mimeType: 'image/png', blob: 'iVBO' },
      },
      {
        type: 'resource',
        resource: {
          uri: 'file:///a/data.json',
          mimeType: 'application/json',
          blob: base64('{"a":1}'),
        },
      },
      {
        type: 'resource',
        resource: { uri: 'file:///a/x.bin', mimeType: 'application/octet-stream', blob: 'AAAA' },
      },
    ],
  };
  expect(toModelOutput(result)).toEqual({
    type: 'content',
    value: [
      {
        type: 'file',
        mediaType: 'image/png',
        data: { type: 'data', data: 'iVBO' },
        filename: 'chart.png',
      },
      { type: 'text', text: '[resource file:///a/data.json]\n{"a":1}' },
      {
        type: 'text',
        text: '[resource file:///a/x.bin: application/octet-stream, about 3 bytes, not shown]',
      },
    ],
  });
});

test('isError is an error output carrying what the tool said', () => {
  expect(
    toModelOutput({
      isError: true,
      content: [
        { type: 'text', text: 'quota exceeded' },
        { type: 'image', data: 'iVBO', mimeType: 'image/png' },
      ],
    }),
  ).toEqual({ type: 'error-text', value: 'quota exceeded\n[image image/png]' });
  expect(toModelOutput({ isError: true, content: [] })).toMatchObject({ type: 'error-text' });
});

test('a content kind newer than the adapter still reaches the model, as JSON', () => {
  const block = { type: 'hologram', frames: 3 } as unknown as CallToolResult['content'][number];
  expect(toModelOutput({ isError: false, content: [block] })).toEqual({
    type: 'text',
    value: '{"type":"hologram","frames":3}',
  });
});

test('an output that is not a tool result goes to the model as JSON', () => {
  expect(toModelOutput({ answer: 42 })).toEqual({ type: 'json', value: { answer: 42 } });
  expect(toModelOutput(undefined)).toEqual({ type: 'json', value: null });
});
