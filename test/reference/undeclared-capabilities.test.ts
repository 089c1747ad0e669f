/**
 * Most servers in the wild offer tools only. What they did not declare is never asked for: lists
 * are empty and everything else is a MissingCapabilityError naming the capability, without a
 * request. Against the official 1.x SDK server with one tool, and a 2026-07-28 server.
 */

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpClient, MissingCapabilityError } from '@toolwire/client';
import { expect, test } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.ts';
import { modernServer } from '../helpers/modern-server.ts';
import { serveSdk } from '../helpers/sdk-server.ts';

function toolsOnly(): McpServer {
  const server = new McpServer({ name: 'tools-only', version: '1.0.0' });
  server.registerTool('ping_me', { description: 'Answers pong' }, async () => ({
    content: [{ type: 'text', text: 'pong' }],
  }));
  return server;
}

const refusals = [
  ['readResource', 'resources'],
  ['subscribeResource', 'resources.subscribe'],
  ['getPrompt', 'prompts'],
  ['complete', 'completions'],
  ['setLoggingLevel', 'logging'],
] as const;

test('a tools-only server: empty lists and typed refusals, and only the handshake and the listing reach it', async () => {
  const methods: Array<string | undefined> = [];
  const server = await serveSdk(toolsOnly, { onRequest: (_http, method) => methods.push(method) });
  try {
    await using client = createMcpClient(server.url);
    await client.connect();
    expect(client.serverCapabilities).not.toHaveProperty('resources');
    expect(await client.listResources()).toEqual([]);
    expect(await client.listResourceTemplates()).toEqual([]);
    expect(await client.listPrompts()).toEqual([]);
    const calls = {
      readResource: () => client.readResource('file:///x'),
      subscribeResource: () => client.subscribeResource('file:///x'),
      getPrompt: () => client.getPrompt('greet'),
      complete: () =>
        client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'a', value: '' }),
      setLoggingLevel: () => client.setLoggingLevel('debug'),
    };
    for (const [method, capability] of refusals) {
      const error = await calls[method]().catch((e: unknown) => e);
      expect(error, method).toBeInstanceOf(MissingCapabilityError);
      expect(error, method).toMatchObject({
        code: 'MISSING_CAPABILITY',
        side: 'server',
        capability,
      });
      expect((error as Error).message).toContain(`did not declare the ${capability} capability`);
    }
    expect((await client.callTool('ping_me')).content).toEqual([{ type: 'text', text: 'pong' }]);
    // Past negotiation (server/discover, initialize, initialized) only the tool was asked for.
    const handshake = ['server/discover', 'initialize', 'notifications/initialized'];
    expect(methods.filter((m) => m !== undefined && !handshake.includes(m))).toEqual([
      'tools/list',
      'tools/call',
    ]);
  } finally {
    await server.close();
  }
});

test('at 2026-07-28 too: what server/discover did not declare is not asked for', async () => {
  await using server = await startFaultServer(modernServer());
  await using client = createMcpClient(server.url, {
    listen: false,
  });
  await client.connect();
  expect(await client.listPrompts()).toEqual([]);
  await expect(client.getPrompt('greet')).rejects.toMatchObject({ capability: 'prompts' });
  await expect(
    client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'a', value: '' }),
  ).rejects.toMatchObject({ capability: 'completions' });
  expect(server.calls.map((call) => call.body?.['method'])).toEqual(['server/discover']);
});
