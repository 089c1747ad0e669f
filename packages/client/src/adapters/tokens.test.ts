import { describe, expect, test } from 'vitest';
import { importOrExplain } from './tokenizers.ts';
import { toolTokens } from './tokens.ts';

/** One token per character: the sums are easy to follow. */
const perCharacter = (text: string) => text.length;

describe('toolTokens', () => {
  test('counts each definition as the JSON a provider is sent, and sums per server', async () => {
    const a = { name: 'a', description: 'A.', inputSchema: { type: 'object' }, server: 'one' };
    const b = { name: 'b', inputSchema: { type: 'object' }, server: 'two' };
    const c = { name: 'c', inputSchema: {}, server: 'one' };
    const counted = await toolTokens([a, b, c], { tokenizer: perCharacter });
    const json = (value: object) => JSON.stringify(value).length;
    const costA = json({ name: 'a', description: 'A.', input_schema: { type: 'object' } });
    const costB = json({ name: 'b', input_schema: { type: 'object' } });
    const costC = json({ name: 'c', input_schema: {} });
    expect(counted.tools).toEqual([
      { name: 'a', server: 'one', tokens: costA },
      { name: 'b', server: 'two', tokens: costB },
      { name: 'c', server: 'one', tokens: costC },
    ]);
    expect(counted.servers).toEqual({ one: costA + costC, two: costB });
    expect(counted.total).toBe(costA + costB + costC);
  });

  test('a server named __proto__ is counted as its own entry', async () => {
    const counted = await toolTokens([{ name: 'x', inputSchema: {}, server: '__proto__' }], {
      tokenizer: () => 3,
    });
    expect(Object.hasOwn(counted.servers, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(counted.servers, '__proto__')?.value).toBe(3);
  });

  test('the real o200k tokenizer: known counts for known text', async () => {
    const counted = await toolTokens(
      [{ name: 'add', description: 'Adds two numbers.', inputSchema: { type: 'object' } }],
      { tokenizer: 'o200k' },
    );
    // {"name":"add","description":"Adds two numbers.","input_schema":{"type":"object"}}: 81
    // characters, 18 o200k tokens (a character counter or a missing load would not give 18).
    expect(counted.total).toBe(18);
  });

  test("the real Claude tokenizer counts differently from o200k's", async () => {
    const tools = [
      { name: 'add', description: 'Adds two numbers.', inputSchema: { type: 'object' } },
    ];
    const claude = await toolTokens(tools, { tokenizer: 'claude' });
    expect(claude.total).toBeGreaterThan(0);
    expect(claude.total).not.toBe((await toolTokens(tools)).total);
  });

  test('an unknown tokenizer name is a TypeError naming the choices', async () => {
    await expect(toolTokens([], { tokenizer: 'gpt2' as unknown as 'o200k' })).rejects.toThrow(
      /'o200k', 'claude' or a function/,
    );
  });

  test('a tokenizer package not installed fails with what to install', async () => {
    await expect(
      importOrExplain('@toolwire/no-such-tokenizer', '@toolwire/no-such-tokenizer', 'o200k'),
    ).rejects.toThrow(
      "counting tokens with 'o200k' needs the optional package @toolwire/no-such-tokenizer: npm install @toolwire/no-such-tokenizer",
    );
  });
});
