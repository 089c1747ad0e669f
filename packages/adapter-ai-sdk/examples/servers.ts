/**
 * Several servers as one tool set: `createMcpClients` names each tool after its server, sends each
 * call to its own server, local (a child process over stdio) or remote, and leaves a server that
 * goes down out of the next set without failing the others. Run it from the repository root with
 * `node packages/adapter-ai-sdk/examples/servers.ts`.
 */
import { mcpToolSet } from '@toolwire/ai-sdk';
import { createMcpClients } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { generateText, stepCountIs } from 'ai';
import { standInModel } from './stand-in-model.ts';

const admin = await startReferenceServer();

// The shape an editor's configuration file uses; servers by name → { url } or { command, args }.
// docs is local: the client starts it as a child process and speaks to it over stdio.
await using clients = createMcpClients({
  mcpServers: {
    docs: { command: 'npx', args: ['toolwire-reference-server', '--stdio'] },
    admin: { url: admin.urls.modern },
  },
});
clients.on('serverDown', (server, error) => console.log(`down        ${server} (${error.name})`));

const set = await mcpToolSet(clients, { include: ['docs__echo', 'admin__add'] });
console.log(`tools       ${Object.keys(set.tools).join(', ')}`);

const both = await generateText({
  model: standInModel(
    { call: { docs__echo: { text: 'hi' }, admin__add: { a: 2, b: 40 } } },
    { say: 'Both answered.' },
  ),
  tools: set.tools,
  prompt: 'Echo, and add.',
  stopWhen: stepCountIs(3),
});
for (const part of both.steps[0]?.toolResults ?? []) {
  console.log(`result      ${part.toolName} from ${part.toolMetadata?.['serverName']}`);
}

// One server stops: its call fails alone, and the next set leaves its tools out.
await admin.close();
const one = await generateText({
  model: standInModel(
    { call: { docs__echo: { text: 'still here' }, admin__add: { a: 1, b: 1 } } },
    { say: 'One answered.' },
  ),
  tools: set.tools,
  prompt: 'Again.',
  stopWhen: stepCountIs(3),
});
for (const part of one.steps[0]?.content ?? []) {
  if (part.type === 'tool-result') console.log(`result      ${part.toolName}`);
  if (part.type === 'tool-error') console.log(`failed      ${part.toolName}`);
}
console.log(`tools now   ${Object.keys(await set.refresh()).join(', ')}`);
