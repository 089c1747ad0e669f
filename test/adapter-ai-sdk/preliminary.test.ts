/**
 * Progress and streamed partials as the AI SDK's preliminary tool results: with
 * `preliminaryResults`, `execute` is an async iterable, and `streamText` shows each report as it
 * comes, before the final result the model reads.
 */
import { mcpTools } from '@toolwire/ai-sdk';
import { createMcpClient } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { stepCountIs, streamText, type TextStreamPart, type ToolSet } from 'ai';
import { expect, test } from 'vitest';
import { ScriptedModel } from './model.ts';

async function toolResults(stream: AsyncIterable<TextStreamPart<ToolSet>>) {
  const parts: Array<{ preliminary: boolean; output: unknown }> = [];
  for await (const part of stream) {
    if (part.type === 'tool-result')
      parts.push({ preliminary: part.preliminary === true, output: part.output });
  }
  return parts;
}

test('streamText shows each progress report as a preliminary result, then the final one', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const seen: number[] = [];
  const tools = await mcpTools(client, {
    include: ['progress'],
    preliminaryResults: true,
    onProgress: (progress) => seen.push(progress.progress),
  });
  const model = new ScriptedModel([
    { calls: [{ tool: 'progress', input: { steps: 3 } }] },
    { text: 'done' },
  ]);
  const result = streamText({ model, tools, prompt: 'work', stopWhen: stepCountIs(3) });
  const parts = await toolResults(result.fullStream);

  const preliminary = parts.filter((part) => part.preliminary).map((part) => part.output);
  expect(preliminary.slice(0, 3)).toEqual(
    [1, 2, 3].map((step) => ({
      content: [],
      isError: false,
      progress: { progress: step, total: 3, message: `step ${step}` },
    })),
  );
  const final = parts.filter((part) => !part.preliminary);
  expect(final).toEqual([
    {
      preliminary: false,
      output: { content: [{ type: 'text', text: 'done after 3 steps' }], isError: false },
    },
  ]);
  expect(seen).toEqual([1, 2, 3]);
  // The model reads the final result only.
  expect(await result.text).toBe('done');
  expect(model.outputsSeen(2).get('call-1-1')).toEqual({
    type: 'text',
    value: 'done after 3 steps',
  });
});

test('a result the server streams in parts (MCP-lite) grows preliminary result by part', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.mcpLite);
  const tools = await mcpTools(client, { include: ['generate_report'], preliminaryResults: true });
  const model = new ScriptedModel([
    { calls: [{ tool: 'generate_report', input: { topic: 'Q4' } }] },
    { text: 'reported' },
  ]);
  const result = streamText({ model, tools, prompt: 'report', stopWhen: stepCountIs(3) });
  const parts = await toolResults(result.fullStream);
  const texts = parts
    .filter((part) => part.preliminary)
    .map((part) =>
      (part.output as { content: Array<{ text: string }> }).content.map((block) => block.text),
    );
  // Each preliminary result holds every part so far, one more each time.
  expect(texts.length).toBeGreaterThanOrEqual(2);
  for (let index = 1; index < texts.length - 1; index++) {
    expect(texts[index]?.slice(0, -1)).toEqual(texts[index - 1]);
  }
  expect(texts[0]?.[0]).toContain('Q4');
  const final = parts.find((part) => !part.preliminary)?.output as {
    content: Array<{ text: string }>;
  };
  expect(final.content.map((block) => block.text).join('')).toContain('Executive Summary');
  expect(await result.text).toBe('reported');
});

test('without the option, execute returns one promise, as before', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpTools(client, { include: ['echo'] });
  const output = tools['echo']!.execute!(
    { text: 'x' },
    { toolCallId: '1', messages: [], context: {} },
  );
  expect(output).toBeInstanceOf(Promise);
  expect(await output).toEqual({ content: [{ type: 'text', text: 'x' }], isError: false });
});
