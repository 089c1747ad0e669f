/**
 * What a call carries and what it returns: every content kind as the model and the application
 * see it, LangChain's abort signal and timeouts reaching the server, the hooks, progress.
 */
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { AbortedError, createMcpClient, TimeoutError } from '@toolwire/client';
import { type McpArtifact, mcpStructuredTools } from '@toolwire/langchain';
import { startReferenceServer } from '@toolwire/reference-server';
import { createAgent } from 'langchain';
import { expect, test } from 'vitest';
import { posts, waitFor } from '../reference/helpers.ts';

function toolCall(name: string, args: Record<string, unknown>) {
  return { name, args, id: `call-${name}`, type: 'tool_call' as const };
}

test('image and audio become standard content blocks, a resource link a line of text, an embedded resource a text-plain block and the artifact', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const [media] = await mcpStructuredTools(client, { include: ['media'] });
  const raw = await client.callTool('media');

  const message = await media!.invoke(toolCall('media', {}));
  const artifact = message.artifact as McpArtifact;

  const image = raw.content.find((block) => block.type === 'image');
  const audio = raw.content.find((block) => block.type === 'audio');
  expect(message.content).toEqual([
    { type: 'image', data: image?.data, mimeType: 'image/png' },
    { type: 'audio', data: audio?.data, mimeType: 'audio/wav' },
    // A ref:// link no provider could fetch is named in a line; an http(s) one would be a file block.
    { type: 'text', text: 'resource link: hello <ref://static/hello>, text/plain' },
    {
      type: 'text-plain',
      text: 'hello, world',
      mimeType: 'text/plain',
      title: 'ref://static/hello',
    },
  ]);
  expect(artifact.resources).toEqual([raw.content.find((block) => block.type === 'resource')]);
  expect(artifact.result).toEqual(raw);
  expect(artifact).toMatchObject({ tool: 'media', server: client.serverInfo?.name });

  // For a provider that takes only text and images in a tool message, the artifact alone.
  const [plain] = await mcpStructuredTools(client, { include: ['media'], resources: 'artifact' });
  const kept = await plain!.invoke(toolCall('media', {}));
  expect((kept.content as Array<{ type: string }>).map((block) => block.type)).toEqual([
    'image',
    'audio',
    'text',
  ]);
  expect((kept.artifact as McpArtifact).resources).toEqual(artifact.resources);
});

test('a content_and_artifact ToolMessage keeps the artifact for the application', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const [add] = await mcpStructuredTools(client, { include: ['add'] });
  const message = await add!.invoke(toolCall('add', { a: 1, b: 1 }));
  expect(message.content).toBe('{"sum":2}');
  expect((message.artifact as McpArtifact).structuredContent).toEqual({ sum: 2 });
});

test('aborting the RunnableConfig signal cancels the call on the server', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const [slow] = await mcpStructuredTools(client, { include: ['slow'] });
  const controller = new AbortController();

  const call = slow!.invoke({ ms: 60_000 }, { signal: controller.signal });
  await waitFor(() => posts(server, 'tools/call').length === 1);
  controller.abort();

  await expect(call).rejects.toBeInstanceOf(AbortedError);
  await waitFor(() => server.cancelled.length === 1);
});

test('aborting an agent run mid-call cancels the tool call on the server', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client, { include: ['slow'] });
  const model = fakeModel()
    .respondWithTools([{ name: 'slow', args: { ms: 60_000 }, id: 's' }])
    .respond(new AIMessage('never reached'));
  const agent = createAgent({ model, tools });
  const controller = new AbortController();

  const run = agent.invoke({ messages: [new HumanMessage('wait')] }, { signal: controller.signal });
  await waitFor(() => posts(server, 'tools/call').length === 1);
  controller.abort();

  await expect(run).rejects.toThrow();
  await waitFor(() => server.cancelled.length === 1);
  expect(model.callCount).toBe(1);
});

test('a RunnableConfig timeout ends the call and the server sees the cancellation', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const [slow] = await mcpStructuredTools(client, { include: ['slow'] });
  await expect(slow!.invoke({ ms: 60_000 }, { timeout: 200 })).rejects.toBeInstanceOf(AbortedError);
  await waitFor(() => server.cancelled.length === 1);
});

test('the timeoutMs option is the call deadline: a TimeoutError, and the server is told', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const [slow] = await mcpStructuredTools(client, { include: ['slow'], timeoutMs: 200 });
  await expect(slow!.invoke({ ms: 60_000 })).rejects.toBeInstanceOf(TimeoutError);
  await waitFor(() => server.cancelled.length === 1);
});

test('beforeCall can rewrite the arguments, afterCall the result; both see server and tool', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const seen: string[] = [];
  const [echo] = await mcpStructuredTools(client, {
    include: ['echo'],
    prefix: 'ref_',
    serverName: 'reference',
    beforeCall: (call) => {
      seen.push(`before ${call.server} ${call.tool.name} as ${call.name}`);
      return { text: `${String(call.arguments['text'])}!` };
    },
    afterCall: ({ result }) => {
      seen.push(`after ${JSON.stringify(result.content)}`);
      return { ...result, content: [{ type: 'text', text: 'replaced' }] };
    },
  });

  expect(echo?.name).toBe('ref_echo');
  const message = await echo!.invoke(toolCall('ref_echo', { text: 'hi' }));

  expect(message.content).toBe('replaced');
  expect(seen).toEqual([
    'before reference echo as ref_echo',
    'after [{"type":"text","text":"hi!"}]',
  ]);
  expect(posts(server, 'tools/call')[0]?.body).toMatchObject({
    params: { name: 'echo', arguments: { text: 'hi!' } },
  });
});

test('progress reaches onProgress and LangChain callbacks as mcp_progress events', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const reports: string[] = [];
  const events: unknown[] = [];
  const [progress] = await mcpStructuredTools(client, {
    include: ['progress'],
    onProgress: ({ progress, total }, call) => reports.push(`${call.name} ${progress}/${total}`),
  });
  await progress!.invoke(
    { steps: 3, delayMs: 0 },
    { callbacks: [{ handleCustomEvent: (name, data) => void events.push({ name, data }) }] },
  );
  expect(reports).toEqual(['progress 1/3', 'progress 2/3', 'progress 3/3']);
  expect(events).toHaveLength(3);
  expect(events[2]).toMatchObject({ name: 'mcp_progress', data: { progress: 3, total: 3 } });
});

test('an MCP-lite promise is redeemed inside invoke, and the redeem tool is not offered', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
  const tools = await mcpStructuredTools(client);
  expect(tools.map((tool) => tool.name)).not.toContain('redeem');
  const analyse = tools.find((tool) => tool.name === 'analyze_dataset');
  const output = await analyse?.invoke({ dataset_id: 'sales', polls: 1 });
  expect(JSON.parse(String(output))).toEqual({ dataset_id: 'sales', rows: 1000, outliers: 3 });
});
