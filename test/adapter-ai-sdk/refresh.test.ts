/**
 * Fresh tools: when the server says its list changed, the next tool set has the change, with
 * the same client and the same session.
 */
import { mcpToolSet, mcpTools } from '@toolwire/ai-sdk';
import { createMcpClient } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { generateText, stepCountIs } from 'ai';
import { expect, test } from 'vitest';
import { posts, waitFor } from '../reference/helpers.ts';
import { ScriptedModel } from './model.ts';

test.each([
  ['a stateful session', 'stateful'],
  ['2026-07-28 (subscriptions/listen)', 'modern'],
] as const)(
  'a tool added during one generation is offered in the next, on %s',
  async (_label, endpoint) => {
    await using server = await startReferenceServer();
    await using client = createMcpClient(server.urls[endpoint]);
    let changed = false;
    client.on('toolsChanged', () => {
      changed = true;
    });

    const first = new ScriptedModel([
      { calls: [{ tool: 'toggle_tool', input: {} }] },
      { text: 'added' },
    ]);
    await generateText({
      model: first,
      tools: await mcpTools(client),
      prompt: 'add a tool',
      stopWhen: stepCountIs(3),
    });
    expect(first.toolsOffered(1)).not.toContain('bonus');
    await waitFor(() => changed);

    const second = new ScriptedModel([
      { calls: [{ tool: 'bonus', input: {} }] },
      { text: 'used it' },
    ]);
    const result = await generateText({
      model: second,
      tools: await mcpTools(client),
      prompt: 'use the new tool',
      stopWhen: stepCountIs(3),
    });
    expect(second.toolsOffered(1)).toContain('bonus');
    expect(second.outputsSeen(2).get('call-1-1')).toEqual({ type: 'text', value: 'bonus' });
    expect(result.text).toBe('used it');
    // One connection all along: a legacy session is opened once and never again; 2026-07-28
    // has no session to open.
    expect(posts(server, 'initialize')).toHaveLength(endpoint === 'stateful' ? 1 : 0);
  },
);

test('refresh() on a tool set follows the list, and keeps the same tools while nothing changed', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  let changed = false;
  client.on('toolsChanged', () => {
    changed = true;
  });
  const set = await mcpToolSet(client);
  const before = set.tools;
  expect(await set.refresh()).toBe(before);
  const listings = posts(server, 'tools/list').length;

  await client.callTool('toggle_tool');
  await waitFor(() => changed);
  // A running generation keeps the set it was given.
  expect(set.tools).toBe(before);
  expect(Object.keys(before)).not.toContain('bonus');

  const after = await set.refresh();
  expect(Object.keys(after)).toContain('bonus');
  expect(set.tools).toBe(after);
  expect(posts(server, 'tools/list').length).toBeGreaterThan(listings);
  expect(set.serverName('bonus')).toBe('bonus');
});
