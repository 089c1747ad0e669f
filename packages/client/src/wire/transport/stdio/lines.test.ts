import { StringDecoder } from 'node:string_decoder';
import { describe, expect, test } from 'vitest';
import { leadingId } from './leading-id.ts';
import { LineSplitter } from './lines.ts';

function splitter(limit = 100) {
  const lines: string[] = [];
  const oversized: string[] = [];
  const split = new LineSplitter(limit, {
    line: (text) => lines.push(text),
    oversized: (head) => oversized.push(head),
  });
  return { split, lines, oversized };
}

describe('LineSplitter', () => {
  test('one message per line, whatever the chunks', () => {
    const { split, lines } = splitter();
    split.push('{"a":1}\n{"b"');
    split.push(':2}\n');
    split.push('{"c":3}');
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    split.push('\n');
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  test('accepts \\r\\n and skips blank lines', () => {
    const { split, lines } = splitter();
    split.push('{"a":1}\r\n\r\n  \n{"b":2}\r');
    split.push('\n');
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  test('a multi-byte character split across chunks is decoded whole (as the stream decodes)', () => {
    const { split, lines } = splitter();
    const decoder = new StringDecoder('utf8');
    const bytes = Buffer.from('"é✓"\n');
    split.push(decoder.write(bytes.subarray(0, 2)));
    split.push(decoder.write(bytes.subarray(2)));
    expect(lines).toEqual(['"é✓"']);
  });

  test('the limit counts UTF-8 bytes, not characters', () => {
    const { split, lines, oversized } = splitter(6);
    // Two three-byte characters: six bytes, at the limit; a third is over it.
    split.push('✓✓\n✓✓✓\n');
    expect(lines).toEqual(['✓✓']);
    expect(oversized).toEqual(['✓✓✓']);
  });

  test('a line of spaces and tabs is skipped; any other character is passed on', () => {
    const { split, lines } = splitter();
    split.push(' \t \n\u00a0\n');
    expect(lines).toEqual(['\u00a0']);
  });

  test('a last line without a newline counts when the stream ends', () => {
    const { split, lines } = splitter();
    split.push('{"a":1}');
    split.end();
    expect(lines).toEqual(['{"a":1}']);
  });

  test('a line of exactly the limit passes; one byte more is dropped, with its head', () => {
    const { split, lines, oversized } = splitter(10);
    split.push(`${'x'.repeat(10)}\r\n${'y'.repeat(11)}\n{"ok":1}\n`);
    expect(lines).toEqual(['x'.repeat(10), '{"ok":1}']);
    expect(oversized).toEqual(['y'.repeat(11)]);
  });

  test('an oversized line arriving in pieces is dropped as it comes, and the next line is read', () => {
    const { split, lines, oversized } = splitter(2_000);
    split.push('{"jsonrpc":"2.0","id":7,"result":"');
    for (let i = 0; i < 100; i++) split.push('z'.repeat(100));
    split.push('"}\n{"next":true}\n');
    expect(oversized).toHaveLength(1);
    expect(oversized[0]).toHaveLength(1024);
    expect(leadingId(oversized[0]!)).toBe(7);
    expect(lines).toEqual(['{"next":true}']);
  });

  test('framing is linear: a 16 MiB line in 1 KiB chunks is read at once', () => {
    // A buffer that concatenated on every chunk would copy 128 GiB here and never finish.
    const { split, lines } = splitter(16 * 1024 * 1024);
    const chunk = 'a'.repeat(1024);
    for (let i = 0; i < 16 * 1024 - 1; i++) split.push(chunk);
    split.push('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toHaveLength((16 * 1024 - 1) * 1024);
  });
});

describe('leadingId', () => {
  test.each([
    ['{"jsonrpc":"2.0","id":7,"result":{', 7],
    ['{ "id" : "abc-1" , "result"', 'abc-1'],
    ['{"jsonrpc":"2.0","id":-3.5}', -3.5],
    ['{"result":{"id":9,"x":[1,{"id":2}]},"id":4,', 4],
    ['{"s":"a \\" \\"id\\":1","id":"q\\"r",', 'q"r'],
  ])('%s → %s', (head, id) => {
    expect(leadingId(head)).toBe(id);
  });

  test.each([
    ['{"jsonrpc":"2.0","result":{"content":"…', 'the id comes after the head'],
    ['{"jsonrpc":"2.0","id":12', 'the number may go on past the head'],
    ['{"jsonrpc":"2.0","id":null,"error"', 'no id'],
    ['[{"id":1}]', 'not an object'],
    ['garbage', 'not JSON'],
  ])('%s: undefined (%s)', (head) => {
    expect(leadingId(head)).toBeUndefined();
  });
});
