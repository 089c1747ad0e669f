/**
 * A server that asks the user something in the middle of a tool call, answered through
 * LangGraph's human in the loop: the agent pauses with the question, the application asks its
 * user, and the agent resumes with the answer.
 *
 *   node packages/adapter-langchain/examples/elicitation.ts
 */
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { type ClientOptions, createMcpClient } from '@toolwire/client';
import { mcpStructuredTools } from '@toolwire/langchain';
import { elicitationInterrupt } from '@toolwire/langchain/langgraph';
import { startReferenceServer } from '@toolwire/reference-server';
import { createAgent } from 'langchain';

await using server = await startReferenceServer();
// `ask_name` elicits the user's name; the reference server offers it at its 2026-07-28 endpoint.
const options: ClientOptions = {
  onElicitation: elicitationInterrupt(),
};
await using client = createMcpClient(server.urls.modern, options);

const model = fakeModel()
  .respondWithTools([{ name: 'ask_name', args: {} }])
  .respond(new AIMessage('Greeted.'));
const agent = createAgent({
  model,
  tools: await mcpStructuredTools(client, { include: ['ask_name'] }),
  checkpointer: new MemorySaver(), // interrupts need one
});
const thread = { configurable: { thread_id: 'example' } };

const paused = await agent.invoke({ messages: [new HumanMessage('Greet me.')] }, thread);
for (const { value } of paused.__interrupt__ ?? []) {
  console.log('the server asks:', JSON.stringify(value));
}

// Here a real application shows the question to its user; this one answers for them.
const answer = { action: 'accept', content: { name: 'Ada' } };
const done = await agent.invoke(new Command({ resume: answer }), thread);
for (const message of done.messages) console.log(`${message.type}: ${String(message.content)}`);
