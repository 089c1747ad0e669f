/**
 * The client against punkpeye's fastmcp 4.20 with its `httpStream` transport, stateful and
 * stateless. fastmcp builds its sessions with the 1.x SDK `Server` and serves them through
 * mcp-proxy, which hands 2025-era requests to the v2 SDK's Streamable HTTP transport.
 *
 * Server quirk (stateful): fastmcp's session `connect()` polls for the client's capabilities ten
 * times, 100 ms apart, but mcp-proxy only passes the `initialize` request on after `connect()`
 * has returned, so every stateful session takes a second to open and fastmcp logs "could not
 * infer client capabilities". The client simply waits; its default timeout is far longer. A
 * side effect: with no client capabilities known, fastmcp never starts its server-to-client
 * pings, so they cannot be tested here.
 *
 * Its `context.elicit` and its session's `requestSampling` are answered by the client's handlers
 * in test/handlers/independent-servers.test.ts.
 */
import { createMcpClient, type LogMessage } from '@toolwire/client';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { startFastMcpServer } from '../helpers/fastmcp-server.ts';
import { expectCleanClose, settledHandles } from '../helpers/handles.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { watchWire } from '../helpers/wire-watch.ts';

// mcp-proxy writes every GET stream and DELETE it serves to console.log.
beforeEach(() => void vi.spyOn(console, 'log').mockImplementation(() => {}));
afterEach(() => vi.restoreAllMocks());

describe.each(['stateful', 'stateless'] as const)('fastmcp (%s)', (mode) => {
  test('negotiates 2025-11-25 and lists the tools', async () => {
    await using server = await startFastMcpServer(mode);
    await using client = createMcpClient(server.url);
    const tools = await client.listTools();
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.serverInfo).toEqual({ name: 'fastmcp-interop', version: '1.0.0' });
    expect(client.serverCapabilities).toMatchObject({ logging: {}, completions: {} });
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'add',
      'capital',
      'confirm',
      'echo',
      'fail',
      'image',
      'log',
      'progress',
      'stream',
      'throw',
    ]);
  });

  test('calls text, structured, image and failing tools', async () => {
    await using server = await startFastMcpServer(mode);
    await using client = createMcpClient(server.url);
    expect((await client.callTool('echo', { text: 'hi' })).content).toEqual([
      { type: 'text', text: 'hi' },
    ]);
    // fastmcp's outputSchema is draft-07 (zod-to-json-schema); the client validates with it.
    const add = (await client.listTools()).find((tool) => tool.name === 'add');
    expect(add?.outputSchema).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#' });
    expect(await client.callTool('add', { a: 2, b: 3 })).toMatchObject({
      content: [{ type: 'text', text: '{"sum":5}' }],
      structuredContent: { sum: 5 },
      isError: false,
    });
    expect((await client.callTool('image')).content).toEqual([
      { type: 'image', data: expect.any(String), mimeType: 'image/png' },
    ]);
    expect(await client.callTool('fail')).toMatchObject({
      content: [{ type: 'text', text: 'it failed' }],
      isError: true,
    });
    expect(await client.callTool('throw')).toMatchObject({
      content: [{ type: 'text', text: "Tool 'throw' execution failed: it threw" }],
      isError: true,
    });
  });

  test('reports progress while a tool runs, and passes its streamContent extension on as a notification', async () => {
    await using server = await startFastMcpServer(mode);
    await using client = createMcpClient(server.url);
    const seen: Array<{ progress: number; total: number | undefined }> = [];
    const result = await client.callTool(
      'progress',
      { steps: 3 },
      { onProgress: ({ progress, total }) => seen.push({ progress, total }) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
    expect(seen).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);

    // notifications/tool/streamContent is fastmcp's own, not MCP: the client hands it to
    // `notification` listeners untouched, before the result (it travels on the call's stream).
    const streamed: unknown[] = [];
    client.on('notification', (method, params) => {
      if (method === 'notifications/tool/streamContent') streamed.push(params);
    });
    expect((await client.callTool('stream')).content).toEqual([{ type: 'text', text: 'complete' }]);
    expect(streamed).toEqual([
      { content: [{ type: 'text', text: 'partial' }], toolName: 'stream' },
    ]);
  });

  test('reads resources and templates, gets prompts and completes their arguments', async () => {
    await using server = await startFastMcpServer(mode);
    await using client = createMcpClient(server.url);
    expect(await client.listResources()).toEqual([
      { uri: 'fast://hello', name: 'hello', mimeType: 'text/plain' },
    ]);
    expect((await client.readResource('fast://hello')).contents).toEqual([
      { uri: 'fast://hello', name: 'hello', mimeType: 'text/plain', text: 'hello from fastmcp' },
    ]);
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual([
      'fast://items/{id}',
    ]);
    expect((await client.readResource('fast://items/7')).contents[0]).toMatchObject({
      uri: 'fast://items/7',
      text: 'item 7',
    });
    expect(await client.listPrompts()).toEqual([
      {
        name: 'paint',
        description: 'Asks for a painting',
        arguments: [{ name: 'colour', required: true }],
      },
    ]);
    expect((await client.getPrompt('paint', { colour: 'red' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Paint it red.' } },
    ]);
    const colours = await client.complete(
      { type: 'ref/prompt', name: 'paint' },
      { name: 'colour', value: 'b' },
    );
    expect(colours.completion.values).toEqual(['blue', 'black']);
    const ids = await client.complete(
      { type: 'ref/resource', uri: 'fast://items/{id}' },
      { name: 'id', value: '1' },
    );
    expect(ids.completion.values).toEqual(['1', '17']);
  });

  test('close() leaves no socket or timer behind', async () => {
    await using server = await startFastMcpServer(mode);
    const baseline = await settledHandles();
    const client = createMcpClient(server.url);
    // The server runs in this process and keeps idle connections for five minutes (mcp-proxy's
    // default): its sockets count too, and close only because the client closes its own.
    await expectCleanClose(client, baseline);
  });
});

describe('fastmcp (stateful)', () => {
  test('delivers log messages on the GET stream', async () => {
    await using server = await startFastMcpServer('stateful');
    await using wire = watchWire();
    await using client = createMcpClient(server.url, { dispatcher: wire.dispatcher });
    const logs: LogMessage[] = [];
    client.on('log', (message) => logs.push(message));
    await client.connect();
    await waitFor(() => wire.openStreams() > 0);
    await client.setLoggingLevel('info');
    await client.callTool('log', { text: 'written down' });
    await waitFor(() => logs.length > 0);
    expect(logs).toEqual([
      { level: 'info', data: { message: 'written down', context: { from: 'fastmcp' } } },
    ]);
    expect(server.logged).toContainEqual(expect.stringContaining('could not infer client'));
  });
});

describe('fastmcp (stateless)', () => {
  // Server quirk: fastmcp sends a tool's log messages as notifications unrelated to the call,
  // which only a GET stream could carry; stateless serving has none, so they are dropped.
  // Anything sent on the call's own stream would have arrived before its result.
  test('drops a tool’s log messages: they belong to no stream', async () => {
    await using server = await startFastMcpServer('stateless');
    await using client = createMcpClient(server.url);
    const logs: LogMessage[] = [];
    client.on('log', (message) => logs.push(message));
    await client.setLoggingLevel('info');
    expect((await client.callTool('log', { text: 'lost' })).content).toEqual([
      { type: 'text', text: 'logged' },
    ]);
    expect(logs).toEqual([]);
  });
});
