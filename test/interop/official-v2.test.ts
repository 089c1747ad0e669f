/**
 * The client against the official v2 server, `@modelcontextprotocol/server` 2.4. It is dual-era:
 * its `createMcpHandler` serves 2026-07-28 on the modern path and 2025-era traffic (2025-11-25,
 * 2025-06-18, 2025-03-26, 2024-11-05) through a stateless legacy fallback; its Streamable HTTP
 * transport still serves 2025-era sessions the 1.x way. The client negotiates 2026-07-28 with the
 * handler (one server/discover before the first call) and 2025-11-25 with the stateful transport;
 * with `legacy: 'reject'` the server speaks 2026-07-28 only, and the client still gets there.
 *
 * Its input_required rounds (elicitation and sampling built with `inputRequired`) are answered by
 * the client's handlers in test/handlers/independent-servers.test.ts.
 */
import { createMcpClient, type LogMessage, UnsupportedVersionError } from '@toolwire/client';
import { describe, expect, test } from 'vitest';
import { expectSessionDeleted } from '../helpers/fetch-server.ts';
import { expectCleanClose, handles, settledHandles } from '../helpers/handles.ts';
import { startV2Server } from '../helpers/v2-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

describe.each(['dual-era', 'stateful'] as const)('official v2 server (%s)', (mode) => {
  test('negotiates the best revision it serves and lists the tools', async () => {
    await using server = await startV2Server(mode);
    await using client = createMcpClient(server.url);
    const tools = await client.listTools();
    expect(client.protocolVersion).toBe(mode === 'dual-era' ? '2026-07-28' : '2025-11-25');
    expect(client.serverInfo).toEqual({ name: 'v2-interop', version: '2.0.0' });
    expect(client.serverCapabilities).toMatchObject({ logging: {}, completions: {} });
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'add',
      'capital',
      'deploy',
      'echo',
      'fail',
      'image',
      'log',
      'progress',
      'throw',
    ]);
  });

  test('calls text, structured, image and failing tools', async () => {
    await using server = await startV2Server(mode);
    await using client = createMcpClient(server.url);
    expect((await client.callTool('echo', { text: 'hi' })).content).toEqual([
      { type: 'text', text: 'hi' },
    ]);
    const added = await client.callTool('add', { a: 2, b: 3 });
    expect(added).toMatchObject({ isError: false, structuredContent: { sum: 5 } });
    expect((await client.callTool('image')).content).toEqual([
      { type: 'image', data: expect.any(String), mimeType: 'image/png' },
    ]);
    expect(await client.callTool('fail')).toMatchObject({
      content: [{ type: 'text', text: 'it failed' }],
      isError: true,
    });
    // The v2 server turns an exception in a tool into an isError result.
    expect(await client.callTool('throw')).toMatchObject({
      content: [{ type: 'text', text: 'it threw' }],
      isError: true,
    });
  });

  test('reports progress while a tool runs', async () => {
    await using server = await startV2Server(mode);
    await using client = createMcpClient(server.url);
    const seen: number[] = [];
    const result = await client.callTool(
      'progress',
      { steps: 3 },
      { onProgress: (p) => seen.push(p.progress) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
    expect(seen).toEqual([1, 2, 3]);
  });

  test('delivers a log message a tool sends on its call’s stream', async () => {
    await using server = await startV2Server(mode);
    await using client = createMcpClient(server.url);
    const logs: LogMessage[] = [];
    client.on('log', (message) => logs.push(message));
    await client.setLoggingLevel('info');
    await client.callTool('log', { text: 'written down' });
    // Sent on the call's own event stream, so it arrives before the result.
    expect(logs).toEqual([{ level: 'info', logger: 'v2-interop', data: 'written down' }]);
  });

  test('reads resources and templates, gets prompts and completes their arguments', async () => {
    await using server = await startV2Server(mode);
    await using client = createMcpClient(server.url);
    expect((await client.listResources()).map((r) => r.uri)).toEqual(['v2://hello']);
    expect((await client.readResource('v2://hello')).contents).toEqual([
      { uri: 'v2://hello', text: 'hello from v2' },
    ]);
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual([
      'v2://items/{id}',
    ]);
    expect((await client.readResource('v2://items/7')).contents[0]).toMatchObject({
      text: 'item 7',
    });
    expect((await client.listPrompts()).map((p) => p.name)).toEqual(['paint']);
    expect((await client.getPrompt('paint', { colour: 'red' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Paint it red.' } },
    ]);
    const colours = await client.complete(
      { type: 'ref/prompt', name: 'paint' },
      { name: 'colour', value: 'b' },
    );
    expect(colours.completion.values).toEqual(['blue', 'black']);
    const ids = await client.complete(
      { type: 'ref/resource', uri: 'v2://items/{id}' },
      { name: 'id', value: '1' },
    );
    expect(ids.completion.values).toEqual(['1', '17']);
  });

  test('close() leaves no socket or timer behind', async () => {
    await using server = await startV2Server(mode);
    const baseline = await settledHandles();
    const client = createMcpClient(server.url);
    // The server runs in this process and keeps idle connections for a minute: its sockets
    // (and its SSE keep-alive timers) count too, and end only because the client ends its own.
    await expectCleanClose(client, baseline);
  });
});

describe('official v2 server (dual-era)', () => {
  test('is spoken to statelessly at 2026-07-28: one discover before the first call, only POSTs, no session id', async () => {
    await using server = await startV2Server('dual-era');
    const client = createMcpClient(server.url, { listen: false });
    await client.listTools();
    await client.callTool('echo', { text: 'modern' });
    await client.close();
    expect(client.dialect).toBe('mcp-stateless');
    expect(server.requests.map((r) => r.headers.get('mcp-method'))).toEqual([
      'server/discover',
      'tools/list',
      'tools/call',
    ]);
    expect(
      server.requests.every((r) => r.method === 'POST' && r.headers.get('mcp-session-id') === null),
    ).toBe(true);
  });

  test('pinned to the legacy era, its 2025-era fallback is stateless: no session id, GET 405, no DELETE', async () => {
    await using server = await startV2Server('dual-era');
    const client = createMcpClient(server.url, { protocolVersion: 'legacy' });
    await client.listTools();
    await waitFor(() => server.requests.some((r) => r.method === 'GET' && r.status !== undefined));
    expect(server.requests.find((r) => r.method === 'GET')?.status).toBe(405);
    await client.close();
    expect(server.requests.map((r) => r.headers.get('mcp-session-id'))).toEqual(
      server.requests.map(() => null),
    );
    expect(server.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });
});
describe('official v2 server (stateful)', () => {
  test('keeps a session with a GET stream and deletes it on close()', async () => {
    await using server = await startV2Server('stateful');
    const client = createMcpClient(server.url);
    await client.listTools();
    await waitFor(() => server.requests.some((r) => r.method === 'GET' && r.status === 200));
    await expectSessionDeleted(client, server.requests, '2025-11-25');
  });
});

describe('official v2 server (modern-only, legacy: reject)', () => {
  test('is found modern by its discover answer and spoken to at 2026-07-28, leaving nothing open', async () => {
    await using server = await startV2Server('modern-only');
    const baseline = await settledHandles();
    const client = createMcpClient(server.url);
    expect((await client.callTool('echo', { text: 'hi' })).content).toEqual([
      { type: 'text', text: 'hi' },
    ]);
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(server.requests.filter((r) => r.method !== 'POST')).toHaveLength(0);
    await client.close();
    await waitFor(() => handles() <= baseline);
    expect(handles()).toBeLessThanOrEqual(baseline);
  });

  test('pinned to the legacy era, its -32022 refusal of initialize is an UnsupportedVersionError', async () => {
    await using server = await startV2Server('modern-only');
    await using client = createMcpClient(server.url, { protocolVersion: 'legacy' });
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedVersionError);
    expect(error).toMatchObject({ offered: '2026-07-28', method: 'initialize' });
  });
});
