/**
 * What the model sees of a tool result, read from the prompt of its next turn: every content
 * kind as a model part, resource links read on demand, and tool failures as error outputs (or
 * thrown, when asked).
 */
import { mcpTools, ToolResultError } from '@toolwire/ai-sdk';
import { createMcpClient } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { generateText, stepCountIs } from 'ai';
import { expect, test } from 'vitest';
import { posts } from '../reference/helpers.ts';
import { ScriptedModel } from './model.ts';

function callOnce(tool: string, input: unknown = {}): ScriptedModel {
  return new ScriptedModel([{ calls: [{ tool, input }] }, { text: 'seen' }]);
}

test('images and audio reach the model as media, an embedded text resource and a resource link as text', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const model = callOnce('media');
  await generateText({
    model,
    tools: await mcpTools(client),
    prompt: 'media',
    stopWhen: stepCountIs(3),
  });

  // The server's own blocks, to compare the model's parts with.
  const { content } = await client.callTool('media');
  const [image, audio, link, embedded] = content;
  if (image?.type !== 'image' || audio?.type !== 'audio') throw new Error('unexpected media');
  if (link?.type !== 'resource_link' || embedded?.type !== 'resource')
    throw new Error('unexpected');
  if (!('text' in embedded.resource)) throw new Error('expected a text resource');

  expect(model.outputsSeen(2).get('call-1-1')).toEqual({
    type: 'content',
    value: [
      { type: 'file', mediaType: image.mimeType, data: { type: 'data', data: image.data } },
      { type: 'file', mediaType: audio.mimeType, data: { type: 'data', data: audio.data } },
      { type: 'text', text: expect.stringContaining(`<${link.uri}>`) },
      {
        type: 'text',
        text: `[resource ${embedded.resource.uri}]\n${embedded.resource.text}`,
      },
    ],
  });
  // Nothing was read that nobody asked for.
  expect(posts(server, 'resources/read')).toHaveLength(0);
});

test('with readResourceLinks, a linked resource is read and its contents follow the link', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const model = callOnce('media');
  const tools = await mcpTools(client, { readResourceLinks: true });
  await generateText({ model, tools, prompt: 'media', stopWhen: stepCountIs(3) });
  // Counted before the test reads the resource itself, below: these are the adapter's reads.
  const readByAdapter = posts(server, 'resources/read').length;

  const { content } = await client.callTool('media');
  const link = content.find((block) => block.type === 'resource_link');
  const read = await client.readResource(link?.type === 'resource_link' ? link.uri : '');
  const [contents] = read.contents;
  if (!contents || !('text' in contents)) throw new Error('expected a text resource');

  const output = model.outputsSeen(2).get('call-1-1') as { value: Array<{ text?: string }> };
  const linkAt = output.value.findIndex((part) => part.text?.includes(`<${contents.uri}>`));
  expect(linkAt).toBeGreaterThanOrEqual(0);
  expect(output.value[linkAt + 1]).toEqual({
    type: 'text',
    text: `[resource ${contents.uri}]\n${contents.text}`,
  });
  // One link in the result: one read.
  expect(readByAdapter).toBe(1);
});

test('isError goes back to the model as an error output, and the loop goes on', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const model = new ScriptedModel([
    { calls: [{ tool: 'fail', input: { message: 'the disk is full' } }] },
    { calls: [{ tool: 'echo', input: { text: 'recovered' } }] },
    { text: 'done' },
  ]);
  const result = await generateText({
    model,
    tools: await mcpTools(client),
    prompt: 'try',
    stopWhen: stepCountIs(5),
  });
  expect(model.outputsSeen(2).get('call-1-1')).toEqual({
    type: 'error-text',
    value: 'the disk is full',
  });
  expect(model.outputsSeen(3).get('call-2-1')).toEqual({ type: 'text', value: 'recovered' });
  expect(result.text).toBe('done');
  // For the application it is a result: the tool ran and said no.
  expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({ isError: true });
});

test("with toolErrors: 'throw', isError is a ToolResultError the AI SDK records as a tool error", async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const model = callOnce('fail', { message: 'the disk is full' });
  const result = await generateText({
    model,
    tools: await mcpTools(client, { toolErrors: 'throw' }),
    prompt: 'try',
    stopWhen: stepCountIs(3),
  });
  const failure = result.steps[0]?.content.find((part) => part.type === 'tool-error');
  expect(failure?.error).toBeInstanceOf(ToolResultError);
  expect(failure?.error).toMatchObject({ tool: 'fail', result: { isError: true } });
  expect(model.outputsSeen(2).get('call-1-1')).toEqual({
    type: 'error-text',
    value: expect.stringContaining('the disk is full'),
  });
});
