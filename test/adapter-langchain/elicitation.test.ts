/**
 * Elicitation routed into LangGraph's human in the loop: the handler pauses the graph with an
 * interrupt, and the answer the graph is resumed with goes back to the server.
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import { fakeModel } from '@langchain/core/testing';
import { Annotation, Command, MemorySaver, StateGraph } from '@langchain/langgraph';
import { type ClientOptions, createMcpClient } from '@toolwire/client';
import { mcpStructuredTools } from '@toolwire/langchain';
import {
  type ElicitationHandler,
  type ElicitationRequest,
  type ElicitationResult,
  elicitationInterrupt,
} from '@toolwire/langchain/langgraph';
import { startReferenceServer } from '@toolwire/reference-server';
import { createAgent } from 'langchain';
import { expect, test } from 'vitest';

const REQUEST: ElicitationRequest = {
  mode: 'form',
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
};
const SERVER = { name: 'ref', version: '1', protocolVersion: '2026-07-28', url: 'http://ref/' };

/** What a paused graph's result carries, whatever its state type. */
function interrupts(state: unknown): Array<{ id?: string; value: unknown }> | undefined {
  return (state as { __interrupt__?: Array<{ id?: string; value: unknown }> }).__interrupt__;
}

/** A graph whose one node asks through the handler, as the client will during a tool call. */
function askingGraph(handler: ElicitationHandler) {
  const State = Annotation.Root({ answer: Annotation<ElicitationResult | undefined> });
  return new StateGraph(State)
    .addNode('ask', async () => ({
      answer: await handler(REQUEST, { signal: new AbortController().signal, server: SERVER }),
    }))
    .addEdge('__start__', 'ask')
    .compile({ checkpointer: new MemorySaver() });
}

test('the handler pauses the graph with the request, and returns what the graph is resumed with', async () => {
  const graph = askingGraph(elicitationInterrupt());
  const config = { configurable: { thread_id: 'one' } };

  const paused = await graph.invoke({}, config);
  expect(interrupts(paused)).toEqual([
    {
      id: expect.any(String),
      value: { type: 'mcp_elicitation', request: REQUEST, server: SERVER },
    },
  ]);

  const answer = { action: 'accept', content: { name: 'Ada' } } as const;
  const resumed = await graph.invoke(new Command({ resume: answer }), config);
  expect(resumed.answer).toEqual(answer);
});

test('a resume value that is not an answer fails with a TypeError saying what to send', async () => {
  const graph = askingGraph(elicitationInterrupt());
  const config = { configurable: { thread_id: 'two' } };
  await graph.invoke({}, config);
  await expect(graph.invoke(new Command({ resume: 'Ada' }), config)).rejects.toThrow(
    /resume an elicitation with \{ action/,
  );
});

test('toInterrupt and fromResume shape both sides for the application', async () => {
  const graph = askingGraph(
    elicitationInterrupt({
      toInterrupt: (request) => request.message,
      fromResume: (value) => ({ action: 'accept', content: { name: String(value) } }),
    }),
  );
  const config = { configurable: { thread_id: 'three' } };
  const paused = await graph.invoke({}, config);
  expect(interrupts(paused)?.[0]?.value).toBe('What is your name?');
  const resumed = await graph.invoke(new Command({ resume: 'Grace' }), config);
  expect(resumed.answer).toEqual({ action: 'accept', content: { name: 'Grace' } });
});

test('code the client runs during a tool call in an agent sees the graph run (what interrupt() needs)', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const seen: unknown[] = [];
  // Progress arrives on the call's event stream, the way a legacy server's elicitation request does.
  const tools = await mcpStructuredTools(client, {
    include: ['progress'],
    onProgress: () => {
      const config = AsyncLocalStorageProviderSingleton.getRunnableConfig();
      seen.push(config?.configurable?.thread_id);
    },
  });
  const model = fakeModel()
    .respondWithTools([{ name: 'progress', args: { steps: 2, delayMs: 0 }, id: 'p' }])
    .respond(new AIMessage('done'));
  const agent = createAgent({ model, tools, checkpointer: new MemorySaver() });
  await agent.invoke(
    { messages: [new HumanMessage('work')] },
    { configurable: { thread_id: 'progress' } },
  );
  expect(seen).toEqual(['progress', 'progress']);
});

// End to end through the client's `onElicitation` option: a 2026-07-28 input_required round.
test('an agent tool that makes the server ask pauses the agent; the resumed answer reaches the server', async () => {
  await using server = await startReferenceServer();
  const options: ClientOptions = {
    onElicitation: elicitationInterrupt(),
  };
  await using client = createMcpClient(server.urls.modern, options);
  const tools = await mcpStructuredTools(client, { include: ['ask_name'] });
  const model = fakeModel()
    .respondWithTools([{ name: 'ask_name', args: {}, id: 'ask' }])
    .respond(new AIMessage('greeted'));
  const agent = createAgent({ model, tools, checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: 'agent' } };

  const paused = await agent.invoke({ messages: [new HumanMessage('greet me')] }, config);
  expect(interrupts(paused)?.[0]?.value).toMatchObject({
    type: 'mcp_elicitation',
    request: { message: 'What is your name?' },
  });

  const resume = { action: 'accept', content: { name: 'Ada' } };
  const done = await agent.invoke(new Command({ resume }), config);
  const greeting = done.messages.find((m) => ToolMessage.isInstance(m));
  expect(greeting?.content).toBe('Hello, Ada!');
});
