/**
 * What happens around one call: arguments checked before it is sent, aborting a generation
 * cancelling it on the server, approval, hooks and progress, and the options that choose and
 * name the tools.
 */
import { type McpToolCall, mcpToolSet, mcpTools, TOOL_CALL_ID_META } from '@toolwire/ai-sdk';
import { AbortedError, createMcpClient, type Progress } from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { expect, test } from 'vitest';
import { posts, rpcBody, waitFor } from '../reference/helpers.ts';
import { ScriptedModel } from './model.ts';

function toolCallNames(server: ReferenceServer): string[] {
  return posts(server, 'tools/call').map((entry) => String(rpcBody(entry.body).params?.['name']));
}

test('arguments that break the server schema go back to the model, and the server never sees them', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const model = new ScriptedModel([
    { calls: [{ tool: 'add', input: { a: 'two', c: 1 } }] },
    { calls: [{ tool: 'add', input: { a: 2, b: 3 } }] },
    { text: 'five' },
  ]);
  const result = await generateText({
    model,
    tools: await mcpTools(client),
    prompt: 'add',
    stopWhen: stepCountIs(5),
  });
  const rejected = model.outputsSeen(2).get('call-1-1') as { type: string; value: string };
  expect(rejected.type).toBe('error-text');
  expect(rejected.value).toContain('/a must be number');
  expect(rejected.value).toContain('(the arguments) is missing "b"');
  expect(model.outputsSeen(3).get('call-2-1')).toEqual({ type: 'text', value: '{"sum":5}' });
  expect(result.text).toBe('five');
  // Only the corrected call reached the server.
  expect(posts(server, 'tools/call')).toHaveLength(1);
  expect(rpcBody(posts(server, 'tools/call')[0]?.body).params).toMatchObject({
    arguments: { a: 2, b: 3 },
  });
});

test.each([
  ['a stateful session (notifications/cancelled)', 'stateful'],
  ['2026-07-28 (the stream is closed)', 'modern'],
] as const)('aborting a generation cancels the running call on %s', async (_label, endpoint) => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls[endpoint]);
  const model = new ScriptedModel([
    { calls: [{ tool: 'slow', input: { ms: 60_000 } }] },
    { text: 'never' },
  ]);
  const controller = new AbortController();
  const generation = generateText({
    model,
    tools: await mcpTools(client),
    prompt: 'wait',
    abortSignal: controller.signal,
    stopWhen: stepCountIs(3),
  });
  await waitFor(() => posts(server, 'tools/call').length === 1);
  controller.abort(new Error('the user left'));
  await expect(generation).rejects.toThrow();
  await waitFor(() => server.cancelled.length === 1);
  expect(server.cancelled[0]).toMatchObject({
    requestId: rpcBody(posts(server, 'tools/call')[0]?.body).id,
  });
  // The model was never asked to go on with a result it did not get.
  expect(model.calls).toHaveLength(1);
});

test("needsApproval: 'destructive' holds back the tools the server does not say are safe", async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpTools(client, { needsApproval: 'destructive' });
  const prompt: ModelMessage[] = [{ role: 'user', content: 'go' }];
  const first = await generateText({
    // progress has no annotations: by the spec's defaults it may be destructive. echo is read-only.
    model: new ScriptedModel([
      {
        calls: [
          { tool: 'progress', input: { steps: 1, delayMs: 0 } },
          { tool: 'echo', input: { text: 'safe' } },
        ],
      },
    ]),
    tools,
    messages: prompt,
    stopWhen: stepCountIs(3),
  });
  const request = first.content.find((part) => part.type === 'tool-approval-request');
  expect(request?.toolCall.toolName).toBe('progress');
  expect(toolCallNames(server)).toEqual(['echo']);

  // The user approves; the next generation runs the call, then lets the model see its result.
  const model = new ScriptedModel([{ text: 'progress done' }]);
  const second = await generateText({
    model,
    tools,
    messages: [
      ...prompt,
      ...first.response.messages,
      {
        role: 'tool',
        content: [
          { type: 'tool-approval-response', approvalId: request!.approvalId, approved: true },
        ],
      },
    ],
  });
  expect(second.text).toBe('progress done');
  expect(toolCallNames(server)).toEqual(['echo', 'progress']);
  expect(model.outputsSeen(1).get(request!.toolCall.toolCallId)).toEqual({
    type: 'text',
    value: 'done after 1 steps',
  });
});

test('needsApproval as a function decides per tool', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpTools(client, { needsApproval: (tool) => tool.name === 'count' });
  const result = await generateText({
    model: new ScriptedModel([
      {
        calls: [
          { tool: 'count', input: {} },
          { tool: 'echo', input: { text: 'x' } },
        ],
      },
    ]),
    tools,
    prompt: 'go',
    stopWhen: stepCountIs(3),
  });
  const requested = result.content.filter((part) => part.type === 'tool-approval-request');
  expect(requested.map((part) => part.toolCall.toolName)).toEqual(['count']);
  expect(toolCallNames(server)).toEqual(['echo']);
});

test("the model's tool call id reaches the server in the call's _meta", async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const model = new ScriptedModel([
    { calls: [{ tool: 'echo', input: { text: 'hi' } }] },
    { text: 'ok' },
  ]);
  await generateText({
    model,
    tools: await mcpTools(client),
    prompt: 'go',
    stopWhen: stepCountIs(3),
  });
  const [call] = posts(server, 'tools/call');
  expect(rpcBody(call?.body).params?.['_meta']).toEqual({ [TOOL_CALL_ID_META]: 'call-1-1' });
});

test('hooks see each call with its toolCallId, may replace the arguments and the result, and may stop the call', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const seen: Array<Pick<McpToolCall, 'name' | 'toolCallId'> & { server: string }> = [];
  const tools = await mcpTools(client, {
    beforeCall: (call) => {
      seen.push({ name: call.name, toolCallId: call.toolCallId, server: call.tool.name });
      if (call.tool.name === 'count') throw new Error('count is not allowed today');
      if (call.tool.name === 'echo') return { text: String(call.arguments['text']).toUpperCase() };
      return undefined;
    },
    afterCall: ({ result }) => ({
      ...result,
      content: [...result.content, { type: 'text', text: 'checked' }],
    }),
  });
  const model = new ScriptedModel([
    {
      calls: [
        { tool: 'echo', input: { text: 'quiet' } },
        { tool: 'count', input: {} },
      ],
    },
    { text: 'ok' },
  ]);
  await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(3) });
  expect(seen).toEqual([
    { name: 'echo', toolCallId: 'call-1-1', server: 'echo' },
    { name: 'count', toolCallId: 'call-1-2', server: 'count' },
  ]);
  expect(toolCallNames(server)).toEqual(['echo']);
  const outputs = model.outputsSeen(2);
  expect(outputs.get('call-1-1')).toEqual({
    type: 'content',
    value: [
      { type: 'text', text: 'QUIET' },
      { type: 'text', text: 'checked' },
    ],
  });
  expect(outputs.get('call-1-2')).toEqual({
    type: 'error-text',
    value: expect.stringContaining('count is not allowed today'),
  });
});

test('progress reports reach onProgress with the call they belong to', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const reports: Array<{ progress: Progress; toolCallId: string }> = [];
  const tools = await mcpTools(client, {
    onProgress: (progress, call) => reports.push({ progress, toolCallId: call.toolCallId }),
  });
  const model = new ScriptedModel([
    { calls: [{ tool: 'progress', input: { steps: 3, delayMs: 0 } }] },
    { text: 'ok' },
  ]);
  await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(3) });
  expect(reports.map((report) => [report.progress.progress, report.toolCallId])).toEqual([
    [1, 'call-1-1'],
    [2, 'call-1-1'],
    [3, 'call-1-1'],
  ]);
});

test('include, exclude and filter choose the tools by their server names', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const included = await mcpTools(client, {
    include: ['echo', 'add', 'media'],
    exclude: ['media'],
  });
  expect(Object.keys(included).sort()).toEqual(['add', 'echo']);
  const readOnly = await mcpTools(client, {
    filter: (tool) => tool.annotations?.readOnlyHint === true,
  });
  const listed = await client.listTools();
  expect(Object.keys(readOnly).sort()).toEqual(
    listed
      .filter((tool) => tool.annotations?.readOnlyHint === true)
      .map((tool) => tool.name)
      .sort(),
  );
  expect(Object.keys(readOnly)).not.toContain('count');
});

test('prefixes put two servers in one tool set, each call reaching its own server', async () => {
  await using first = await startReferenceServer();
  await using second = await startReferenceServer();
  await using firstClient = createMcpClient(first.url);
  await using secondClient = createMcpClient(second.urls.modern);
  const one = await mcpToolSet(firstClient, { prefix: 'one_', include: ['count'] });
  const two = await mcpToolSet(secondClient, { prefix: 'two_', include: ['count'] });
  const tools = { ...one.tools, ...two.tools };
  expect(Object.keys(tools).sort()).toEqual(['one_count', 'two_count']);
  expect(one.serverName('one_count')).toBe('count');
  expect(two.modelName('count')).toBe('two_count');

  const model = new ScriptedModel([
    {
      calls: [
        { tool: 'one_count', input: {} },
        { tool: 'two_count', input: {} },
        { tool: 'two_count', input: {} },
      ],
    },
    { text: 'counted' },
  ]);
  await generateText({ model, tools, prompt: 'count', stopWhen: stepCountIs(3) });
  expect(toolCallNames(first)).toEqual(['count']);
  expect(toolCallNames(second)).toEqual(['count', 'count']);
});

test('a call the client rejects (aborted before it starts) is a typed McpError for the AI SDK', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpTools(client, { include: ['echo'] });
  const controller = new AbortController();
  controller.abort();
  const execute = tools['echo']?.execute;
  const outcome = await Promise.resolve(
    execute?.(
      { text: 'x' },
      { toolCallId: 'direct', messages: [], abortSignal: controller.signal, context: {} },
    ),
  ).catch((error: unknown) => error);
  expect(outcome).toBeInstanceOf(AbortedError);
  expect(posts(server, 'tools/call')).toHaveLength(0);
});

test("at 2026-07-28, execute returns the protocol's result: no resultType, no server-info _meta", async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.modern);
  const tools = await mcpTools(client, { include: ['echo'] });
  const output = await tools['echo']?.execute?.(
    { text: 'x' },
    { toolCallId: 'direct', messages: [], context: {} },
  );
  expect(client.protocolVersion).toBe('2026-07-28');
  expect(output).toEqual({ content: [{ type: 'text', text: 'x' }], isError: false });
});

test('an MCP-lite promise is redeemed inside execute, and the redeem tool is not offered to the model', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
  const tools = await mcpTools(client);
  expect(Object.keys(tools)).not.toContain('redeem');
  expect(Object.keys(tools)).toContain('analyze_dataset');
  const model = new ScriptedModel([
    { calls: [{ tool: 'analyze_dataset', input: { dataset_id: 'sales', polls: 1 } }] },
    { text: 'analysed' },
  ]);
  await generateText({ model, tools, prompt: 'analyse', stopWhen: stepCountIs(3) });
  const answer = { type: 'text', text: '{"dataset_id":"sales","rows":1000,"outliers":3}' };
  expect(model.outputsSeen(2).get('call-1-1')).toMatchObject({
    type: 'content',
    value: expect.arrayContaining([answer]),
  });
});
