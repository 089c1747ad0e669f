/**
 * The adapter in real LangChain loops: `createAgent` from `langchain`, driven by the fake chat model
 * of `@langchain/core/testing`, calling tools on the reference server over loopback.
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createMcpClient } from '@toolwire/client';
import { type McpArtifact, mcpStructuredTools, ToolException } from '@toolwire/langchain';
import { startReferenceServer } from '@toolwire/reference-server';
import { createAgent } from 'langchain';
import { expect, test } from 'vitest';
import { posts } from '../reference/helpers.ts';

function toolMessages(messages: unknown[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

test('an agent calls two tools in two steps and the model reads each result', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client, { include: ['echo', 'add'] });
  const model = fakeModel()
    .respondWithTools([{ name: 'add', args: { a: 2, b: 40 }, id: 'call-1' }])
    .respondWithTools([{ name: 'echo', args: { text: 'the sum is 42' }, id: 'call-2' }])
    .respond(new AIMessage('done'));
  const agent = createAgent({ model, tools });

  const { messages } = await agent.invoke({ messages: [new HumanMessage('add 2 and 40')] });

  const [sum, echo] = toolMessages(messages);
  expect(sum?.tool_call_id).toBe('call-1');
  expect(sum?.content).toBe('{"sum":42}');
  expect(sum?.artifact as McpArtifact).toMatchObject({ structuredContent: { sum: 42 } });
  expect(echo?.content).toBe('the sum is 42');
  expect(messages.at(-1)?.content).toBe('done');
  // The model's second and third turns saw the results of the tools before them.
  expect(model.calls[1]?.messages.some((m) => m.content === '{"sum":42}')).toBe(true);
  expect(model.calls[2]?.messages.some((m) => m.content === 'the sum is 42')).toBe(true);
  // Inside the graph the adapter asks for progress (for streamMode 'custom'): a progress token rides along.
  expect(posts(server, 'tools/call').map((p) => (p.body as { params: unknown }).params)).toEqual([
    { name: 'add', arguments: { a: 2, b: 40 }, _meta: { progressToken: expect.anything() } },
    {
      name: 'echo',
      arguments: { text: 'the sum is 42' },
      _meta: { progressToken: expect.anything() },
    },
  ]);
});

test('model.bindTools sends the server schema to the model; the tools run through invoke', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client, { include: ['add'] });
  const bound = fakeModel()
    .respondWithTools([{ name: 'add', args: { a: 1, b: 2 }, id: 'c' }])
    .bindTools(tools);
  const reply = await bound.invoke('one plus two');
  const [call] = reply.tool_calls ?? [];
  const message = await tools[0]!.invoke({ ...call!, type: 'tool_call' });
  expect(message).toBeInstanceOf(ToolMessage);
  expect((message as ToolMessage).content).toBe('{"sum":3}');
});

test('an invalid argument goes back to the model as a clear error and the server never sees it', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client, { include: ['add'] });
  const model = fakeModel()
    .respondWithTools([{ name: 'add', args: { a: 'two', b: 40 }, id: 'bad' }])
    .respondWithTools([{ name: 'add', args: { a: 2, b: 40 }, id: 'good' }])
    .respond(new AIMessage('fixed it'));
  const agent = createAgent({ model, tools });

  const { messages } = await agent.invoke({ messages: [new HumanMessage('add')] });

  const [bad, good] = toolMessages(messages);
  expect(bad?.status).toBe('error');
  expect(bad?.content).toContain('Invalid arguments for tool "add"');
  expect(bad?.content).toContain('/a must be number');
  expect(good?.content).toBe('{"sum":42}');
  expect(posts(server, 'tools/call')).toHaveLength(1);
});

test('an isError result reaches the model as a ToolException naming server and tool', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client, { include: ['fail'], serverName: 'reference' });
  const model = fakeModel()
    .respondWithTools([{ name: 'fail', args: { message: 'disk full' }, id: 'f' }])
    .respond(new AIMessage('the tool failed'));
  const agent = createAgent({ model, tools });

  const { messages } = await agent.invoke({ messages: [new HumanMessage('go')] });

  const [failed] = toolMessages(messages);
  expect(failed?.status).toBe('error');
  expect(failed?.content).toContain('ToolException: tool "fail" on server "reference" failed');
  expect(failed?.content).toContain('disk full');

  const thrown = await tools[0]!.invoke({ message: 'no space' }).catch((e: unknown) => e);
  expect(thrown).toBeInstanceOf(ToolException);
  expect(thrown).toMatchObject({ server: 'reference', tool: 'fail', result: { isError: true } });
});

test('with handleToolError the failure goes back as the tool result, with status error', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const [fail] = await mcpStructuredTools(client, { include: ['fail'], handleToolError: true });
  const [custom] = await mcpStructuredTools(client, {
    include: ['fail'],
    handleToolError: (error) => `sorry: ${error.tool} on ${error.server}`,
    serverName: 'ref',
  });
  const call = { name: 'fail', args: { message: 'quota' }, id: 'x', type: 'tool_call' as const };

  const message = (await fail!.invoke(call)) as ToolMessage;
  expect(message.status).toBe('error');
  expect(message.content).toBe('quota');
  expect((message.artifact as McpArtifact).result.isError).toBe(true);

  const customized = (await custom!.invoke(call)) as ToolMessage;
  expect(customized.content).toBe('sorry: fail on ref');
});

test('LangChain callbacks see each tool start and end', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const [echo] = await mcpStructuredTools(client, { include: ['echo'] });
  const seen: string[] = [];
  await echo!.invoke(
    { text: 'hi' },
    {
      callbacks: [
        {
          handleToolStart: (_tool, input, _runId, _parent, _tags, _metadata, runName) =>
            void seen.push(`start ${runName} ${input}`),
          handleToolEnd: (output) => void seen.push(`end ${JSON.stringify(output)}`),
        },
      ],
    },
  );
  expect(seen).toEqual(['start echo {"text":"hi"}', 'end "hi"']);
});

test('a LangGraph prebuilt agent (createReactAgent) runs the tools the same way', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client, { include: ['echo', 'fail'] });
  const llm = fakeModel()
    .respondWithTools([
      { name: 'echo', args: { text: 'from langgraph' }, id: 'e' },
      { name: 'fail', args: { message: 'broken' }, id: 'f' },
    ])
    .respond(new AIMessage('ok'));
  const agent = createReactAgent({ llm, tools });

  const { messages } = await agent.invoke({ messages: [new HumanMessage('go')] });

  const [echo, failed] = toolMessages(messages);
  expect(echo?.content).toBe('from langgraph');
  expect(failed?.status).toBe('error');
  expect(failed?.content).toContain('tool "fail" on server');
});
