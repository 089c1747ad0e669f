/**
 * Human approval as LangChain 1.x does it: `humanInTheLoopMiddleware({ interruptOn })`, the map
 * built by `mcpInterruptOn` from the tools' annotations, in a real `createAgent` (a LangGraph
 * agent) driven by LangChain's fake chat model. A destructive call pauses the agent; rejected, it
 * never reaches the server; approved, it does.
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createMcpClient } from '@toolwire/client';
import { mcpInterruptOn, mcpStructuredTools } from '@toolwire/langchain';
import { startReferenceServer } from '@toolwire/reference-server';
import { type AgentMiddleware, createAgent, humanInTheLoopMiddleware } from 'langchain';
import { expect, test } from 'vitest';
import { posts } from '../reference/helpers.ts';

function called(server: Parameters<typeof posts>[0]): string[] {
  return posts(server, 'tools/call').map(
    (post) => (post.body as { params: { name: string } }).params.name,
  );
}

/**
 * LangChain 1.5's middleware types do not compile under `exactOptionalPropertyTypes`, which this
 * repository's tsconfig turns on (without it, `humanInTheLoopMiddleware({ interruptOn })` takes
 * mcpInterruptOn's map as it is: checked by hand).
 */
function hitl(interruptOn: ReturnType<typeof mcpInterruptOn>): AgentMiddleware {
  return humanInTheLoopMiddleware({ interruptOn } as never) as unknown as AgentMiddleware;
}

type Paused = {
  __interrupt__?: Array<{ value: { actionRequests: Array<{ name: string; args: unknown }> } }>;
};

test('interruptOn from annotations: the destructive tool pauses the agent, the read-only one does not', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client, { include: ['echo', 'log'] });
  const interruptOn = mcpInterruptOn(tools, {
    allowedDecisions: ['approve', 'reject'],
    description: (tool) => `${tool.name} may change things`,
  });
  // echo says it is read-only; log says nothing, so the spec's defaults make it destructive.
  expect(interruptOn).toEqual({
    echo: false,
    log: { allowedDecisions: ['approve', 'reject'], description: 'log may change things' },
  });

  const model = fakeModel()
    .respondWithTools([{ name: 'echo', args: { text: 'hi' }, id: 'e' }])
    .respondWithTools([{ name: 'log', args: { level: 'info', message: 'wipe' }, id: 'l' }])
    .respond(new AIMessage('the log call was refused'));
  const agent = createAgent({
    model,
    tools,
    middleware: [hitl(interruptOn)],
    checkpointer: new MemorySaver(),
  });
  const thread = { configurable: { thread_id: 'reject' } };

  // The read-only call ran without asking; the destructive one paused the agent.
  const paused = (await agent.invoke(
    { messages: [new HumanMessage('echo, then log')] },
    thread,
  )) as Paused;
  expect(called(server)).toEqual(['echo']);
  expect(paused.__interrupt__?.[0]?.value.actionRequests).toEqual([
    { name: 'log', args: { level: 'info', message: 'wipe' }, description: 'log may change things' },
  ]);

  const done = await agent.invoke(
    new Command({ resume: { decisions: [{ type: 'reject', message: 'not today' }] } }),
    thread,
  );
  // Rejected, it never reached the server; the model read why.
  expect(called(server)).toEqual(['echo']);
  const rejected = done.messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === 'l');
  expect(rejected?.content).toBe('not today');
  expect(done.messages.at(-1)?.content).toBe('the log call was refused');
});

test('approved, the paused call runs on the server', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client, { include: ['log'] });
  const model = fakeModel()
    .respondWithTools([{ name: 'log', args: { level: 'info', message: 'keep' }, id: 'l' }])
    .respond(new AIMessage('logged'));
  const agent = createAgent({
    model,
    tools,
    middleware: [hitl(mcpInterruptOn(tools))],
    checkpointer: new MemorySaver(),
  });
  const thread = { configurable: { thread_id: 'approve' } };
  const paused = (await agent.invoke({ messages: [new HumanMessage('log')] }, thread)) as Paused;
  expect(paused.__interrupt__).toHaveLength(1);
  expect(called(server)).toEqual([]);
  const done = await agent.invoke(
    new Command({ resume: { decisions: [{ type: 'approve' }] } }),
    thread,
  );
  expect(called(server)).toEqual(['log']);
  expect(done.messages.at(-1)?.content).toBe('logged');
});

test("mcpInterruptOn: 'always', a rule, an edit schema, and other tools left alone", async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpStructuredTools(client, { include: ['echo', 'add'] });
  const always = mcpInterruptOn([...tools, { name: 'own' }], { when: 'always' });
  expect(Object.keys(always)).toEqual(['echo', 'add']);
  expect(always['add']).toEqual({
    allowedDecisions: ['approve', 'edit', 'reject'],
    argsSchema: tools.find((tool) => tool.name === 'add')!.schema,
  });
  const byRule = mcpInterruptOn(tools, { when: (tool) => tool.name === 'echo' });
  expect(byRule['add']).toBe(false);
  expect(byRule['echo']).toMatchObject({ allowedDecisions: ['approve', 'edit', 'reject'] });
});
