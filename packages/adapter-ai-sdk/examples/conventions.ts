/**
 * AI SDK 7's conventions over MCP tools: approval with `toolApproval`, tool search over deferred
 * tools, progress as preliminary results in `streamText`, pinned tool definitions, an MCP Apps
 * view, and the server's instructions. Run it from the repository root with
 * `node packages/adapter-ai-sdk/examples/conventions.ts`.
 */
import {
  mcpToolApproval,
  mcpToolSet,
  mcpTools,
  readAppResource,
  serverInstructions,
  ToolPins,
} from '@toolwire/ai-sdk';
import { createMcpClient } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { generateText, stepCountIs, streamText, toolSearch } from 'ai';
import { standInModel } from './stand-in-model.ts';

await using server = await startReferenceServer();
// apps: this application renders MCP Apps views, so the server offers its UI tools.
await using client = createMcpClient(server.url, { apps: true });

// Approval: the tools that may destroy (by their annotations) wait for the user.
const tools = await mcpTools(client, { include: ['echo', 'log'] });
const asked = await generateText({
  model: standInModel({ call: { echo: { text: 'hi' }, log: { level: 'info', message: 'x' } } }),
  tools,
  toolApproval: mcpToolApproval(tools),
  prompt: 'Echo, then log.',
  stopWhen: stepCountIs(3),
});
for (const part of asked.content) {
  if (part.type === 'tool-approval-request') console.log(`approval?   ${part.toolCall.toolName}`);
}

// Tool search: every tool deferred; the model finds the one it needs.
const deferred = await mcpTools(client, { deferLoading: true });
const searched = await generateText({
  model: standInModel(
    { call: { search_tools: { query: 'add two numbers' } } },
    { call: { add: { a: 2, b: 40 } } },
    { say: 'The sum is 42.' },
  ),
  tools: { ...deferred, search_tools: toolSearch() },
  prompt: 'What is 2 + 40?',
  stopWhen: stepCountIs(4),
});
const found = searched.steps[0]?.toolResults[0]?.output as { tools: Array<{ name: string }> };
console.log(`found       ${found.tools.map((tool) => tool.name).join(', ')}`);
console.log(`answer      ${searched.text}`);

// Preliminary results: progress shows in the stream before the final result.
const streamed = streamText({
  model: standInModel({ call: { progress: { steps: 3 } } }, { say: 'Done.' }),
  tools: await mcpTools(client, { include: ['progress'], preliminaryResults: true }),
  prompt: 'Work.',
  stopWhen: stepCountIs(3),
});
for await (const part of streamed.fullStream) {
  if (part.type !== 'tool-result') continue;
  const { progress, content } = part.output as {
    progress?: { progress: number; total?: number };
    content: unknown[];
  };
  if (part.preliminary && progress)
    console.log(`progress    ${progress.progress}/${progress.total}`);
  if (!part.preliminary) console.log(`result      ${JSON.stringify(content)}`);
}

// Pinning: definitions are fingerprinted at first sight; store them to pin across restarts.
const pins = new ToolPins({ onDrift: (drift) => console.log(`drift       ${drift.changed}`) });
const pinned = await mcpToolSet(client, { pin: pins });
console.log(
  `pinned      ${Object.keys(pins.fingerprints).length} of ${Object.keys(pinned.tools).length} tools`,
);

// MCP Apps: the app-only tool is not offered; the app tool's result names its view.
const app = await generateText({
  model: standInModel({ call: { counter_view: {} } }, { say: 'Shown.' }),
  tools: await mcpTools(client),
  prompt: 'Show the counter.',
  stopWhen: stepCountIs(3),
});
const shown = app.steps[0]?.toolResults[0];
const ui = shown?.toolMetadata?.['ui'] as { resourceUri: string };
const view = await readAppResource(client, ui.resourceUri, { tool: shown!.toolName });
console.log(`view        ${view.uri}: ${view.mimeType}, ${view.html.length} characters of HTML`);
console.log(
  `app-only    ${'counter_view_refresh' in (await mcpTools(client)) ? 'offered' : 'not offered'} to the model`,
);

// Instructions: the server's, for the application to put in the prompt (never added by itself).
const instructions = await serverInstructions(client);
await generateText({
  model: standInModel({ say: 'ok' }),
  ...(instructions ? { instructions } : {}),
  prompt: 'Hi.',
});
console.log(`instructions ${instructions?.slice(0, 40)}...`);
