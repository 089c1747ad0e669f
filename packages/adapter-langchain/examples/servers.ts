/**
 * Several servers as one LangChain toolkit: `createMcpClients` names each tool after its server
 * and sends each call to its own server, local (a child process over stdio) or remote; when one
 * stops, only its call fails, and the toolkit lists without it. No API key: reference servers and
 * LangChain's fake chat model.
 *
 *   node packages/adapter-langchain/examples/servers.ts
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createMcpClients } from '@toolwire/client';
import { McpToolkit } from '@toolwire/langchain';
import { startReferenceServer } from '@toolwire/reference-server';
import { createAgent } from 'langchain';

const admin = await startReferenceServer();
await using clients = createMcpClients({
  // A local server, started by the client as a child process, beside a remote one.
  docs: { command: 'npx', args: ['toolwire-reference-server', '--stdio'] },
  admin: admin.urls.modern,
});
clients.on('serverDown', (server) => console.log(`down        ${server}`));

using toolkit = await McpToolkit.create(clients, { include: ['docs__echo', 'admin__add'] });
console.log(
  `tools       ${toolkit
    .getTools()
    .map((tool) => `${tool.name} (${tool.server})`)
    .join(', ')}`,
);

const calls = [
  { name: 'docs__echo', args: { text: 'hi' } },
  { name: 'admin__add', args: { a: 2, b: 40 } },
];
const agentFor = () =>
  createAgent({
    model: fakeModel().respondWithTools(calls).respond(new AIMessage('done')),
    tools: toolkit.getTools(),
  });
const show = (messages: unknown[]) => {
  for (const message of messages) {
    if (ToolMessage.isInstance(message))
      console.log(`tool        ${message.name}: ${message.status ?? 'success'}`);
  }
};
show((await agentFor().invoke({ messages: [new HumanMessage('Echo and add.')] })).messages);

// One server stops: its call fails alone; the toolkit hears of it and lists without it.
await admin.close();
show((await agentFor().invoke({ messages: [new HumanMessage('Again.')] })).messages);
await toolkit.refresh();
console.log(
  `tools now   ${toolkit
    .getTools()
    .map((tool) => tool.name)
    .join(', ')}`,
);
