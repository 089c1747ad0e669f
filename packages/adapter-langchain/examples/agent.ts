/**
 * A LangChain agent using the tools of an MCP server through @toolwire/langchain.
 *
 * Runs as is, with no API key: it starts the bundled reference server and drives the agent with
 * LangChain's fake chat model. Swap in a real model (`new ChatOpenAI(...)`, `initChatModel(...)`)
 * and your server's URL for the real thing.
 *
 *   node packages/adapter-langchain/examples/agent.ts
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createMcpClient } from '@toolwire/client';
import { type McpArtifact, mcpStructuredTools } from '@toolwire/langchain';
import { startReferenceServer } from '@toolwire/reference-server';
import { createAgent } from 'langchain';

await using server = await startReferenceServer();
await using client = createMcpClient(server.url);

const tools = await mcpStructuredTools(client, { include: ['add', 'media'], prefix: 'ref_' });
console.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);

// The model's turns, scripted: call add, then media, then answer.
const model = fakeModel()
  .respondWithTools([{ name: 'ref_add', args: { a: 2, b: 40 } }])
  .respondWithTools([{ name: 'ref_media', args: {} }])
  .respond(new AIMessage('2 + 40 is 42, and here is a picture.'));

const agent = createAgent({ model, tools });
const { messages } = await agent.invoke({ messages: [new HumanMessage('Add 2 and 40.')] });

for (const message of messages) {
  if (ToolMessage.isInstance(message)) {
    const artifact = message.artifact as McpArtifact;
    const blocks = Array.isArray(message.content)
      ? message.content.map((block) => block.type).join(', ')
      : JSON.stringify(message.content);
    console.log(`tool ${message.name}: ${blocks}`);
    if (artifact.structuredContent !== undefined) {
      console.log(`  structured: ${JSON.stringify(artifact.structuredContent)}`);
    }
    for (const { resource } of artifact.resources) console.log(`  resource: ${resource.uri}`);
  } else if (AIMessage.isInstance(message) && message.tool_calls?.length) {
    const calls = message.tool_calls.map((call) => `${call.name}(${JSON.stringify(call.args)})`);
    console.log(`ai calls ${calls.join(', ')}`);
  } else {
    console.log(`${message.type}: ${String(message.content)}`);
  }
}
