/**
 * LangChain 1.x's conventions over MCP tools: human approval with `humanInTheLoopMiddleware`
 * (`interruptOn` from the tools' annotations), progress on LangGraph's custom stream, tools
 * deferred for tool search, pinned tool definitions, an MCP Apps view, and the server's
 * instructions as the system prompt. No API key: the bundled reference server and LangChain's
 * fake chat model.
 *
 *   node packages/adapter-langchain/examples/conventions.ts
 */
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createMcpClient } from '@toolwire/client';
import {
  type McpArtifact,
  McpToolkit,
  mcpInterruptOn,
  mcpStructuredTools,
  readAppResource,
  serverInstructions,
} from '@toolwire/langchain';
import { startReferenceServer } from '@toolwire/reference-server';
import { type AgentMiddleware, createAgent, humanInTheLoopMiddleware } from 'langchain';

await using server = await startReferenceServer();
// apps: this application renders MCP Apps views, so the server offers its UI tools.
await using client = createMcpClient(server.url, { apps: true });

// Human approval: the tools that may destroy (by their annotations) pause the agent.
const tools = await mcpStructuredTools(client, { include: ['echo', 'log'] });
const interruptOn = mcpInterruptOn(tools, { allowedDecisions: ['approve', 'reject'] });
console.log(`interruptOn ${JSON.stringify(interruptOn)}`);
const reviewed = createAgent({
  model: fakeModel()
    .respondWithTools([{ name: 'log', args: { level: 'info', message: 'wipe' } }])
    .respond(new AIMessage('Not logged.')),
  tools,
  // The cast is for `exactOptionalPropertyTypes`, under which LangChain 1.5's middleware types fail.
  middleware: [humanInTheLoopMiddleware({ interruptOn } as never) as unknown as AgentMiddleware],
  checkpointer: new MemorySaver(),
});
const thread = { configurable: { thread_id: 'review' } };
const paused = await reviewed.invoke({ messages: [new HumanMessage('Log it.')] }, thread);
const [request] =
  (paused as { __interrupt__?: Array<{ value: { actionRequests: Array<{ name: string }> } }> })
    .__interrupt__ ?? [];
console.log(
  `paused      before ${request?.value.actionRequests.map((action) => action.name).join(', ')}`,
);
const rejected = await reviewed.invoke(
  new Command({ resume: { decisions: [{ type: 'reject', message: 'Not today.' }] } }),
  thread,
);
console.log(`rejected    ${rejected.messages.at(-1)?.text}`);

// Progress on the custom stream, as getWriter() writes it.
const working = createAgent({
  model: fakeModel()
    .respondWithTools([{ name: 'progress', args: { steps: 2 } }])
    .respond(new AIMessage('Done.')),
  tools: await mcpStructuredTools(client, { include: ['progress'] }),
});
for await (const event of await working.stream(
  { messages: [new HumanMessage('Work.')] },
  { streamMode: 'custom' },
)) {
  const { progress, total } = event as { progress: number; total: number };
  console.log(`progress    ${progress}/${total}`);
}

// Tool search: marked for LangChain's providerToolSearchMiddleware.
const deferred = await mcpStructuredTools(client, { deferLoading: (tool) => tool.name !== 'echo' });
console.log(
  `deferred    ${deferred.filter((tool) => tool.extras?.['defer_loading']).length} of ${deferred.length}`,
);

// Pinning: the toolkit pins each definition when it first sees it, across refreshes.
using toolkit = await McpToolkit.create(client, {
  pin: { onDrift: (drift) => console.log(`drift       ${drift.changed}`) },
});
console.log(`pinned      ${toolkit.getTools().length} tools`);

// MCP Apps: the app-only tool is not offered; the app tool's result names its view.
const names = toolkit.getTools().map((tool) => tool.name);
console.log(
  `app-only    ${names.includes('counter_view_refresh') ? 'offered' : 'not offered'} to the model`,
);
const [view] = await mcpStructuredTools(client, { include: ['counter_view'] });
const message = (await view!.invoke({
  name: 'counter_view',
  args: {},
  id: 'v',
  type: 'tool_call',
})) as {
  artifact: McpArtifact;
};
const { artifact } = message;
const html = await readAppResource(client, artifact.ui!.resourceUri!, { tool: artifact.tool });
console.log(`view        ${html.uri}: ${html.mimeType}`);

// Instructions: the server's, for the application to put in the system prompt.
const instructions = await serverInstructions(client);
const told = createAgent({
  model: fakeModel().respond(new AIMessage('ok')),
  tools,
  ...(instructions ? { systemPrompt: instructions } : {}),
});
await told.invoke({ messages: [new HumanMessage('Hi.')] });
console.log(`instructions ${instructions?.slice(0, 40)}...`);
