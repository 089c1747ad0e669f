/**
 * Three servers as one AI SDK tool set (`createMcpClients`), in real `generateText` loops: names
 * kept apart, each call on its own server, and one server stopped mid-run failing only its own
 * calls while the others go on; its tools leave the set, and come back when it does.
 */
import { mcpToolSet } from '@toolwire/ai-sdk';
import { createMcpClients } from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { generateText, stepCountIs } from 'ai';
import { expect, test } from 'vitest';
import { posts, waitFor } from '../reference/helpers.ts';
import { ScriptedModel } from './model.ts';

test('three servers, one stopped mid-run: its calls fail alone, its tools leave and come back', async () => {
  await using alpha = await startReferenceServer();
  let beta: ReferenceServer = await startReferenceServer();
  await using gamma = await startReferenceServer();
  const port = Number(new URL(beta.url).port);
  await using clients = createMcpClients(
    { alpha: alpha.url, beta: beta.urls.modern, gamma: gamma.urls.statefulJson },
    { reconnect: { minDelayMs: 20, maxDelayMs: 100 } },
  );
  try {
    const set = await mcpToolSet(clients, { include: ['alpha__echo', 'beta__echo', 'gamma__add'] });
    expect(Object.keys(set.tools).sort()).toEqual(['alpha__echo', 'beta__echo', 'gamma__add']);
    const calls = [
      { tool: 'alpha__echo', input: { text: 'a' } },
      { tool: 'beta__echo', input: { text: 'b' } },
      { tool: 'gamma__add', input: { a: 1, b: 2 } },
    ];
    const first = new ScriptedModel([{ calls }, { text: 'all three' }]);
    await generateText({ model: first, tools: set.tools, prompt: 'go', stopWhen: stepCountIs(3) });
    expect([...first.outputsSeen(2).values()]).toEqual([
      { type: 'text', value: 'a' },
      { type: 'text', value: 'b' },
      { type: 'text', value: '{"sum":3}' },
    ]);
    expect(first.calls[1]?.prompt).toBeDefined();
    for (const server of [alpha, beta, gamma]) expect(posts(server, 'tools/call')).toHaveLength(1);
    expect(set.serverName('beta__echo')).toBe('beta__echo');
    expect(clients.originOf('beta__echo')).toMatchObject({ server: 'beta', tool: 'echo' });

    await beta.close();
    const second = new ScriptedModel([{ calls }, { text: 'two of three' }]);
    const result = await generateText({
      model: second,
      tools: set.tools,
      prompt: 'again',
      stopWhen: stepCountIs(3),
    });
    const seen = second.outputsSeen(2);
    expect(seen.get('call-1-1')).toEqual({ type: 'text', value: 'a' });
    expect(seen.get('call-1-3')).toEqual({ type: 'text', value: '{"sum":3}' });
    // The stopped server's call is an error the model can read; the loop went on.
    expect(seen.get('call-1-2')).toMatchObject({ type: 'error-text' });
    expect(result.text).toBe('two of three');

    // The next set leaves the stopped server's tools out; the others stay.
    expect(Object.keys(await set.refresh()).sort()).toEqual(['alpha__echo', 'gamma__add']);

    beta = await startReferenceServer({ port });
    await waitFor(() => clients.status()['beta'] === 'up');
    expect(Object.keys(await set.refresh()).sort()).toEqual([
      'alpha__echo',
      'beta__echo',
      'gamma__add',
    ]);
  } finally {
    await beta.close();
  }
});
