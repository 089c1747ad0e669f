/**
 * Typed tools: zod schemas per tool give the model and the application static types, while the
 * server's own schema still has the last word before a call is sent. The type assertions here
 * are checked by `tsc` (the typecheck step), the rest by running a loop.
 */
import { mcpTools, ToolArgumentsError } from '@toolwire/ai-sdk';
import { createMcpClient, OutputValidationError, ToolNotFoundError } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { generateText, type InferToolInput, type InferToolOutput, stepCountIs } from 'ai';
import { expect, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { posts } from '../reference/helpers.ts';
import { ScriptedModel } from './model.ts';

const addSchemas = {
  add: {
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    outputSchema: z.object({ sum: z.number() }),
  },
};

test('typed tools carry their input and structured output types into the loop', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpTools(client, { prefix: 'ref_', schemas: addSchemas });

  expectTypeOf<InferToolInput<typeof tools.ref_add>>().toEqualTypeOf<{ a: number; b: number }>();
  expectTypeOf<
    NonNullable<InferToolOutput<typeof tools.ref_add>['structuredContent']>
  >().toEqualTypeOf<{ sum: number }>();
  const options = { toolCallId: 'x', messages: [], context: {} };
  // Compiled, never run: a typed tool takes only its own input.
  // @ts-expect-error: `a` is a number
  const wrongInput = () => tools.ref_add.execute?.({ a: 'two', b: 3 }, options);
  expectTypeOf(wrongInput).toBeFunction();

  const model = new ScriptedModel([
    { calls: [{ tool: 'ref_add', input: { a: 20, b: 22 } }] },
    { text: 'forty-two' },
  ]);
  const result = await generateText({ model, tools, prompt: 'add', stopWhen: stepCountIs(3) });
  const [call] = result.steps[0]?.staticToolCalls ?? [];
  const [answer] = result.steps[0]?.staticToolResults ?? [];
  expect(call?.input).toEqual({ a: 20, b: 22 });
  // Typed all the way: `sum` is a number to the compiler, and to the test.
  const sum: number | undefined =
    answer?.toolName === 'ref_add' ? answer.output.structuredContent?.sum : undefined;
  expect(sum).toBe(42);
  // The other tools stay dynamic beside the typed one.
  expect(Object.keys(tools)).toContain('ref_echo');
  expect(model.outputsSeen(2).get('call-1-1')).toEqual({ type: 'text', value: '{"sum":42}' });
});

test("a typed tool's arguments are still checked against the server's schema before the call", async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  // A lenient schema of the caller's own: the server's schema wants numbers.
  const tools = await mcpTools(client, {
    schemas: { add: { inputSchema: z.object({ a: z.unknown(), b: z.unknown() }) } },
  });
  const model = new ScriptedModel([
    { calls: [{ tool: 'add', input: { a: 'two', b: 3 } }] },
    { text: 'no' },
  ]);
  const result = await generateText({ model, tools, prompt: 'add', stopWhen: stepCountIs(3) });
  const failure = result.steps[0]?.content.find((part) => part.type === 'tool-error');
  expect(failure?.error).toBeInstanceOf(ToolArgumentsError);
  expect((failure?.error as ToolArgumentsError | undefined)?.problems).toEqual([
    '/a must be number',
  ]);
  expect(posts(server, 'tools/call')).toHaveLength(0);
});

test('structuredContent that breaks the typed outputSchema fails the call', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpTools(client, {
    schemas: {
      add: {
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        outputSchema: z.object({ sum: z.string() }),
      },
    },
  });
  const model = new ScriptedModel([
    { calls: [{ tool: 'add', input: { a: 1, b: 2 } }] },
    { text: 'no' },
  ]);
  const result = await generateText({ model, tools, prompt: 'add', stopWhen: stepCountIs(3) });
  const failure = result.steps[0]?.content.find((part) => part.type === 'tool-error');
  expect(failure?.error).toBeInstanceOf(OutputValidationError);
});

test('typing a tool the server does not offer, or one whose name needs repair, is refused', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  await expect(
    mcpTools(client, { schemas: { nope: { inputSchema: z.object({}) } } }),
  ).rejects.toBeInstanceOf(ToolNotFoundError);
  await expect(mcpTools(client, { prefix: 'ref.', schemas: addSchemas })).rejects.toBeInstanceOf(
    TypeError,
  );
  // Left dynamic, the same name is simply repaired.
  expect(Object.keys(await mcpTools(client, { prefix: 'ref.', include: ['add'] }))).toEqual([
    'ref_add',
  ]);
});
