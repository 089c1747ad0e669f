/**
 * Several servers as one tool set (`createMcpClients`), each a real reference server on loopback:
 * names kept apart, calls routed, a server that stops or is slow left out without failing the
 * others and tried again alone until it is back, and nothing left open after `close()`.
 */
import { createMcpClients, type McpClients, TimeoutError, TransportError } from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { expect, test } from 'vitest';
import { handles, settledHandles } from '../helpers/handles.ts';
import { binOf } from '../helpers/stdio.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { posts } from '../reference/helpers.ts';

/** Every event a McpClients emitted, in order, as `[event, server]`. */
function record(clients: McpClients): Array<[string, string]> {
  const seen: Array<[string, string]> = [];
  clients.on('serverDown', (server) => seen.push(['serverDown', server]));
  clients.on('serverUp', (server) => seen.push(['serverUp', server]));
  clients.on('toolsChanged', (server) => seen.push(['toolsChanged', server]));
  return seen;
}

function names(tools: Array<{ name: string }>): string[] {
  return tools.map((tool) => tool.name);
}

test('one tool list over three servers, names kept apart, each call on its own server', async () => {
  await using alpha = await startReferenceServer();
  await using beta = await startReferenceServer();
  await using gamma = await startReferenceServer();
  await using clients = createMcpClients({
    alpha: alpha.url,
    beta: { url: beta.urls.modern, headers: { 'x-server': 'beta' } },
    gamma: gamma.urls.statefulJson,
  });
  const tools = await clients.listTools();
  for (const server of ['alpha', 'beta', 'gamma']) {
    expect(names(tools)).toContain(`${server}__echo`);
  }
  expect(tools.every((tool) => /^[a-zA-Z0-9_-]{1,64}$/.test(tool.name))).toBe(true);
  expect(clients.originOf('beta__add')).toMatchObject({ server: 'beta', tool: 'add' });

  const result = await clients.callTool('beta__add', { a: 2, b: 40 });
  expect(result.structuredContent).toEqual({ sum: 42 });
  expect(posts(beta, 'tools/call')).toHaveLength(1);
  expect(posts(beta, 'tools/call')[0]?.headers['x-server']).toBe('beta');
  expect(posts(alpha, 'tools/call')).toHaveLength(0);
  expect(posts(gamma, 'tools/call')).toHaveLength(0);
  // Nothing changed: the same array, so an adapter rebuilds nothing.
  expect(await clients.listTools()).toBe(tools);
});

test('a server stopped mid-run is left out with a warning, retried alone, and back when it is', async () => {
  await using alpha = await startReferenceServer();
  let beta: ReferenceServer = await startReferenceServer();
  await using gamma = await startReferenceServer();
  const betaPort = Number(new URL(beta.url).port);
  await using clients = createMcpClients(
    { alpha: alpha.urls.modern, beta: beta.urls.modern, gamma: gamma.urls.modern },
    { reconnect: { minDelayMs: 20, maxDelayMs: 100 } },
  );
  const warnings: Array<[Error, string]> = [];
  clients.on('warning', (error, server) => warnings.push([error, server]));
  const events = record(clients);
  try {
    expect(await clients.listTools()).toHaveLength(3 * (await countOf(alpha)));

    await beta.close();
    // The stopped server is found out by the first request that cannot reach it (until then its
    // listing is the fresh one the client holds).
    await expect(clients.callTool('beta__echo', { text: 'x' })).rejects.toThrow(TransportError);
    expect(warnings.map(([, server]) => server)).toContain('beta');
    expect(events).toContainEqual(['serverDown', 'beta']);
    expect(events).toContainEqual(['toolsChanged', 'beta']);
    expect(clients.status()).toEqual({ alpha: 'up', beta: 'down', gamma: 'up' });
    const left = await clients.listTools();
    expect(names(left).some((name) => name.startsWith('beta__'))).toBe(false);
    expect(names(left)).toContain('alpha__echo');
    expect(names(left)).toContain('gamma__echo');
    // The others still answer.
    expect((await clients.callTool('gamma__echo', { text: 'still here' })).content).toEqual([
      { type: 'text', text: 'still here' },
    ]);

    // Only beta is tried again: alpha and gamma see no request while it is down.
    const alphaBefore = alpha.log.length;
    const gammaBefore = gamma.log.length;
    beta = await startReferenceServer({ port: betaPort });
    await waitFor(() => clients.status()['beta'] === 'up');
    expect(events).toContainEqual(['serverUp', 'beta']);
    expect(events.at(-1)).toEqual(['toolsChanged', 'beta']);
    expect(alpha.log.length).toBe(alphaBefore);
    expect(gamma.log.length).toBe(gammaBefore);
    expect(names(await clients.listTools())).toContain('beta__echo');
    expect((await clients.callTool('beta__echo', { text: 'back' })).content).toEqual([
      { type: 'text', text: 'back' },
    ]);
  } finally {
    await beta.close();
  }
});

test('a slow server is left out after serverTimeoutMs, and the others are not kept waiting', async () => {
  await using fast = await startReferenceServer();
  await using slow = await startReferenceServer();
  slow.faults.delay(5_000);
  await using clients = createMcpClients(
    { fast: fast.urls.modern, slow: slow.urls.modern },
    { serverTimeoutMs: 300, reconnect: { minDelayMs: 60_000 } },
  );
  const warnings: Array<[Error, string]> = [];
  clients.on('warning', (error, server) => warnings.push([error, server]));
  const tools = await clients.listTools();
  expect(names(tools)).toContain('fast__echo');
  expect(names(tools).some((name) => name.startsWith('slow__'))).toBe(false);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]?.[0]).toBeInstanceOf(TimeoutError);
  expect(warnings[0]?.[1]).toBe('slow');
  slow.faults.reset();
});

test('close() closes every server and stops the retries: nothing is left open', async () => {
  await using alpha = await startReferenceServer();
  const baseline = await settledHandles();
  const clients = createMcpClients(
    // A port nothing listens on: that server is down from the start and retried until closed.
    { alpha: alpha.url, gone: 'http://127.0.0.1:9/mcp' },
    { reconnect: { minDelayMs: 10, maxDelayMs: 20 } },
  );
  await clients.listTools();
  expect(clients.status()).toEqual({ alpha: 'up', gone: 'down' });
  await clients.close();
  await waitFor(() => handles() <= baseline);
  expect(handles()).toBeLessThanOrEqual(baseline);
  await expect(clients.listTools()).rejects.toThrow(/closed/);
});

/** How many tools a fresh client of `server` sees (at 2026-07-28, what these tests list). */
async function countOf(server: ReferenceServer): Promise<number> {
  await using one = createMcpClients({ one: server.urls.modern });
  return (await one.listTools()).length;
}

test('a local (stdio) entry is started beside a remote one; shared headers go to the remote only', async () => {
  await using server = await startReferenceServer();
  await using clients = createMcpClients(
    {
      mcpServers: {
        local: {
          command: process.execPath,
          args: [binOf('@toolwire/reference-server'), '--stdio'],
        },
        remote: { url: server.urls.modern },
      },
    },
    { headers: { 'x-team': 'docs' } },
  );
  const names = (await clients.listTools()).map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(['local__add', 'remote__add']));
  const sum = await clients.callTool('local__add', { a: 2, b: 40 });
  expect(sum.structuredContent).toEqual({ sum: 42 });
  expect(clients.client('local').url).toMatch(/^stdio:/);
  expect(server.log.every((entry) => entry.headers['x-team'] === 'docs')).toBe(true);
});
