/**
 * Approval as AI SDK 7 configures it: `toolApproval: mcpToolApproval(tools)` on the generation,
 * from the tools' annotations, in a real `generateText` loop with the AI SDK's mock model. The
 * call that needs approval is asked for, and a denied one never reaches the server.
 */
import { mcpToolApproval, mcpTools } from '@toolwire/ai-sdk';
import { createMcpClient } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { posts } from '../reference/helpers.ts';
import { ScriptedModel } from './model.ts';

function calledTools(server: Parameters<typeof posts>[0]): string[] {
  return posts(server, 'tools/call').map(
    (post) => (post.body as { params: { name: string } }).params.name,
  );
}

test('a tool that may destroy waits for approval; denied, it never reaches the server', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const tools = await mcpTools(client, { include: ['echo', 'log'] });
  const approval = mcpToolApproval(tools, { reason: (tool) => `${tool.name} may change things` });
  // echo says it is read-only; log says nothing, so the spec's defaults make it destructive.
  expect(approval).toEqual({
    echo: 'not-applicable',
    log: { type: 'user-approval', reason: 'log may change things' },
  });

  const model = new ScriptedModel([
    {
      calls: [
        { tool: 'echo', input: { text: 'hi' } },
        { tool: 'log', input: { level: 'info', message: 'wipe' } },
      ],
    },
    { text: 'the log call was refused' },
  ]);
  const first = await generateText({
    model,
    tools,
    toolApproval: approval,
    prompt: 'echo and log',
    stopWhen: stepCountIs(5),
  });
  const requests = first.content.filter((part) => part.type === 'tool-approval-request');
  expect(requests).toHaveLength(1);
  expect(requests[0]).toMatchObject({
    toolCall: { toolName: 'log' },
    reason: 'log may change things',
  });
  // The read-only call ran; the one waiting for the user did not.
  expect(calledTools(server)).toEqual(['echo']);

  const messages: ModelMessage[] = [
    { role: 'user', content: 'echo and log' },
    ...first.response.messages,
    {
      role: 'tool',
      content: [
        {
          type: 'tool-approval-response',
          approvalId: requests[0]!.approvalId,
          approved: false,
          reason: 'not today',
        },
      ],
    },
  ];
  const second = await generateText({
    model,
    tools,
    toolApproval: approval,
    messages,
    stopWhen: stepCountIs(5),
  });
  expect(second.text).toBe('the log call was refused');
  expect(calledTools(server)).toEqual(['echo']);
  // The model was told the call was denied, and why.
  expect(model.outputsSeen(2).get('call-1-2')).toEqual({
    type: 'execution-denied',
    reason: 'not today',
  });
});

test('approved, the call runs; a policy function decides per call; other tools keep their own settings', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const own = tool({
    inputSchema: z.object({}),
    needsApproval: true,
    execute: async () => 'mine',
  });
  const tools = { ...(await mcpTools(client, { include: ['echo'] })), own };
  // Ask only when the text is long: the function sees the call's input.
  const approval = mcpToolApproval(tools, {
    when: (_tool, input) => String((input as { text?: unknown }).text).length > 3,
  });
  expect(Object.keys(approval)).toEqual(['echo']);

  const model = new ScriptedModel([
    {
      calls: [
        { tool: 'echo', input: { text: 'ok' } },
        { tool: 'echo', input: { text: 'longer' } },
        { tool: 'own', input: {} },
      ],
    },
    { text: 'done' },
  ]);
  const first = await generateText({
    model,
    tools,
    toolApproval: approval,
    prompt: 'go',
    stopWhen: stepCountIs(5),
  });
  const requests = first.content.filter((part) => part.type === 'tool-approval-request');
  // The long echo asks; the tool that is not the adapter's asks through its own needsApproval.
  expect(requests.map((part) => [part.toolCall.toolName, part.toolCall.input])).toEqual([
    ['echo', { text: 'longer' }],
    ['own', {}],
  ]);
  expect(posts(server, 'tools/call')).toHaveLength(1);

  const messages: ModelMessage[] = [
    { role: 'user', content: 'go' },
    ...first.response.messages,
    {
      role: 'tool',
      content: requests.map((part) => ({
        type: 'tool-approval-response' as const,
        approvalId: part.approvalId,
        approved: true,
      })),
    },
  ];
  await generateText({ model, tools, toolApproval: approval, messages, stopWhen: stepCountIs(5) });
  expect(
    posts(server, 'tools/call').map((post) => (post.body as { params: unknown }).params),
  ).toEqual([
    expect.objectContaining({ name: 'echo', arguments: { text: 'ok' } }),
    expect.objectContaining({ name: 'echo', arguments: { text: 'longer' } }),
  ]);
});
