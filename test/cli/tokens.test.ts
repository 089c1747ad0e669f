/**
 * `toolwire inspect --tokens` against the official "everything" server: each tool's definition
 * in tokens, as listed and as `slim: true` shows it, with the tokenizer asked for.
 */
import { type Tool, toolTokens } from '@toolwire/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type EverythingServer, startEverythingServer } from '../helpers/everything-server.ts';
import { toolwire, toolwireJson } from '../helpers/toolwire.ts';

let server: EverythingServer;
beforeAll(async () => {
  server = await startEverythingServer();
});
afterAll(() => server.close());

interface Cost {
  tokenizer: string;
  total: number;
  slimTotal: number;
  tools: Array<{ name: string; tokens: number; slim: number }>;
}

test('--json carries each tool its tokens, full and slim, and the totals, counted as the library counts', async () => {
  const { code, json } = await toolwireJson(['inspect', server.url, '--tokens']);
  expect(code).toBe(0);
  const cost = (json as { tokens: Cost }).tokens;
  expect(cost.tokenizer).toBe('o200k');
  expect(cost.tools.reduce((sum, tool) => sum + tool.tokens, 0)).toBe(cost.total);
  expect(cost.tools.reduce((sum, tool) => sum + tool.slim, 0)).toBe(cost.slimTotal);
  expect(cost.slimTotal).toBeLessThan(cost.total);
  // The tools the CLI listed (it declares elicitation, sampling and roots, so it gets more).
  const listed = (json as { tools: Tool[] }).tools;
  expect(cost.tools.map((tool) => tool.name)).toEqual(listed.map((tool) => tool.name));
  expect(cost.total).toBe((await toolTokens(listed, { tokenizer: 'o200k' })).total);
}, 60_000);

test('the table shows TOKENS and SLIM columns and the totals; --tokens claude counts with Claude', async () => {
  const { code, stdout } = await toolwire(['inspect', server.url, '--tokens', '--no-color']);
  expect(code).toBe(0);
  expect(stdout).toMatch(/NAME .* TOKENS +SLIM +DESCRIPTION/);
  expect(stdout).toMatch(/^ {2}\d+ tokens in all \(o200k\); \d+ with slim: true$/m);
  const o200k = (await toolwireJson(['inspect', server.url, '--tokens'])).json as { tokens: Cost };
  const claude = (await toolwireJson(['inspect', server.url, '--tokens', 'claude'])).json as {
    tokens: Cost;
  };
  expect(claude.tokens.tokenizer).toBe('claude');
  expect(claude.tokens.total).not.toBe(o200k.tokens.total);
}, 60_000);

test('an unknown tokenizer is a usage error; without --tokens nothing is counted', async () => {
  const wrong = await toolwire(['inspect', server.url, '--tokens', 'gpt2']);
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain('--tokens takes o200k or claude, got gpt2');
  const plain = await toolwireJson(['inspect', server.url]);
  expect(plain.json).not.toHaveProperty('tokens');
}, 60_000);
