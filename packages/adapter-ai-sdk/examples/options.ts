/**
 * Two servers in one tool set, approval for what may destroy, hooks around each call, and a
 * tool set that follows the server's list. Run it from the repository root with
 * `node packages/adapter-ai-sdk/examples/options.ts`.
 */
import { mcpToolApproval, mcpToolSet } from '@toolwire/ai-sdk';
import { createMcpClient } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { generateText, stepCountIs } from 'ai';
import { standInModel } from './stand-in-model.ts';

await using docs = await startReferenceServer();
await using admin = await startReferenceServer();
await using docsClient = createMcpClient(docs.url);
await using adminClient = createMcpClient(admin.urls.modern);

const docsTools = await mcpToolSet(docsClient, { prefix: 'docs_', include: ['echo', 'media'] });
const adminTools = await mcpToolSet(adminClient, {
  prefix: 'admin_',
  exclude: ['large'],
  beforeCall: ({ name, toolCallId, arguments: args }) =>
    console.log(`calling     ${name} (${toolCallId}) ${JSON.stringify(args)}`),
});

// Listen before the generation: the announcement may come while it runs.
const listChanged = new Promise<void>((resolve) => adminClient.on('toolsChanged', resolve));

const first = await generateText({
  model: standInModel(
    { call: { docs_echo: { text: 'hi' }, admin_toggle_tool: {}, admin_progress: { steps: 1 } } },
    { say: 'Echoed, and switched a tool on.' },
  ),
  tools: { ...docsTools.tools, ...adminTools.tools },
  // Tools that do not say they are read-only or non-destructive wait for the user.
  toolApproval: mcpToolApproval({ ...docsTools.tools, ...adminTools.tools }),
  prompt: 'Say hi, then switch the bonus tool on.',
  stopWhen: stepCountIs(5),
});
for (const part of first.content) {
  if (part.type === 'tool-approval-request') {
    const { toolName } = part.toolCall;
    console.log(
      `approval?   ${toolName} is ${adminTools.serverName(toolName)} on the admin server`,
    );
  }
}

// toggle_tool made the server announce a new tool; the next set has it, on the same session.
await listChanged;
const fresh = await adminTools.refresh();
console.log(`new tools   ${'admin_bonus' in fresh ? 'admin_bonus' : '(none)'}`);
