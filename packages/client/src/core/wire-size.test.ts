import { describe, expect, it } from 'vitest';
import { parseMessages } from './jsonrpc.ts';
import { pageSize } from './wire-size.ts';

/** The result of the one response in `text`, as the transports parse it. */
function resultOf(text: string): Record<string, unknown> {
  const [incoming] = parseMessages(text) as Exclude<ReturnType<typeof parseMessages>, string>;
  if (incoming?.kind !== 'response' || !('result' in incoming.message))
    throw new Error('no result');
  return incoming.message.result;
}

describe('pageSize', () => {
  it('is the byte length of a large body as received, multi-byte characters counted as bytes', () => {
    const tools = Array.from({ length: 2_000 }, (_, n) => ({
      name: `tool_${n}`,
      description: 'é',
    }));
    const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools } });
    const result = resultOf(text);
    expect(pageSize(result, result['tools'] as unknown[])).toBe(Buffer.byteLength(text));
  });

  it('measures a small page by its items', () => {
    const result = resultOf('{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a"}]}}');
    const size = pageSize(result, result['tools'] as unknown[]);
    expect(size).toBeGreaterThanOrEqual('[{"name":"a"}]'.length);
    expect(size).toBeLessThan(100);
  });

  it('measures items nested deeper than any recursion could go', () => {
    const depth = 200_000;
    const items = JSON.parse(`[${'['.repeat(depth)}${']'.repeat(depth)}]`) as unknown[];
    expect(pageSize({}, items)).toBeGreaterThanOrEqual(2 * depth);
  });
});
