import type { Tool } from '@toolwire/client';
import { expect, test } from 'vitest';
import { type McpToolsOptions, resolveOptions } from './options.ts';

const tool = (annotations?: Tool['annotations']): Tool => ({
  name: 't',
  inputSchema: { type: 'object' },
  ...(annotations ? { annotations } : {}),
});

test("'destructive' follows the spec's defaults for readOnlyHint and destructiveHint", () => {
  const { needsApproval } = resolveOptions({ needsApproval: 'destructive' });
  expect(needsApproval(tool())).toBe(true);
  expect(needsApproval(tool({ readOnlyHint: true }))).toBe(false);
  expect(needsApproval(tool({ destructiveHint: false }))).toBe(false);
  expect(needsApproval(tool({ destructiveHint: true }))).toBe(true);
  expect(resolveOptions({}).needsApproval(tool())).toBe(false);
});

test('a misspelt option is a TypeError that says what was expected', () => {
  const misuse = (options: unknown) => () =>
    resolveOptions(options as McpToolsOptions<Record<never, never>, string>);
  expect(misuse({ toolErrors: 'raise' })).toThrow(/toolErrors/);
  expect(misuse({ needsApproval: 'always' })).toThrow(/needsApproval/);
  expect(misuse({ include: 'echo' })).toThrow(/include/);
  expect(misuse({ timeoutMs: -1 })).toThrow(/timeoutMs/);
  expect(misuse(null)).toThrow(TypeError);
});

test('the new per-tool options refuse what they cannot use', () => {
  const misuse = (options: unknown) => () =>
    resolveOptions(options as McpToolsOptions<Record<never, never>, string>);
  expect(misuse({ deferLoading: 'all' })).toThrow(/deferLoading/);
  expect(misuse({ strict: 'yes' })).toThrow(/strict/);
  expect(misuse({ providerOptions: 3 })).toThrow(/providerOptions/);
  expect(misuse({ inputExamples: 'x' })).toThrow(/inputExamples/);
  expect(misuse({ pin: 'on' })).toThrow(/pin/);
  expect(misuse({ pin: { onChange: 'ignore' } })).toThrow(/onChange/);
});

test("inputExamples: the caller's, else the objects of the input schema's examples", () => {
  const withExamples: Tool = {
    name: 'find',
    inputSchema: { type: 'object', examples: [{ q: 'a' }, 'not an input', { q: 'b' }] },
  };
  expect(resolveOptions({}).inputExamples(withExamples)).toEqual([
    { input: { q: 'a' } },
    { input: { q: 'b' } },
  ]);
  expect(resolveOptions({}).inputExamples(tool())).toBeUndefined();
  const given = resolveOptions({ inputExamples: { find: [{ input: { q: 'c' } }] } });
  expect(given.inputExamples(withExamples)).toEqual([{ input: { q: 'c' } }]);
});
