/**
 * The client against fiberplane's mcp-lite 0.10 (the npm framework; not the MCP-lite spec
 * dialect), stateless as it comes and stateful with its session and client-request adapters.
 * mcp-lite speaks 2025-06-18 and 2025-03-26 only, answers every request with SSE when the client
 * accepts it, and sends no log messages and no completions (it does not declare either).
 *
 * Its elicitation and sampling helpers (ctx.elicit, ctx.sample) are answered by the client's
 * handlers in test/handlers/independent-servers.test.ts.
 */
import { createMcpClient, JsonRpcError, type Progress } from '@toolwire/client';
import { describe, expect, test } from 'vitest';
import { expectSessionDeleted } from '../helpers/fetch-server.ts';
import { expectCleanClose, settledHandles } from '../helpers/handles.ts';
import { startMcpLiteServer } from '../helpers/mcp-lite-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** mcp-lite's newest revision, which the client has to offer itself (see the quirk below). */
const NEWEST = { protocolVersion: '2025-06-18' } as const;

describe.each(['stateless', 'stateful'] as const)('mcp-lite (%s)', (mode) => {
  test('negotiates 2025-06-18, its newest revision, when the client offers it', async () => {
    await using server = await startMcpLiteServer(mode);
    await using client = createMcpClient(server.url, NEWEST);
    await client.connect();
    expect(client.protocolVersion).toBe('2025-06-18');
    expect(client.serverInfo).toEqual({ name: 'mcp-lite-interop', version: '1.0.0' });
  });

  test('negotiates 2025-06-18, its newest, from the versions its refusal of the modern probe lists', async () => {
    await using server = await startMcpLiteServer(mode);
    await using client = createMcpClient(server.url);
    const seen: number[] = [];
    const result = await client.callTool(
      'progress',
      { steps: 2 },
      { onProgress: (p) => seen.push(p.progress) },
    );
    expect(client.protocolVersion).toBe('2025-06-18');
    expect(result.content).toEqual([{ type: 'text', text: 'done after 2 steps' }]);
    expect(seen).toEqual([1, 2]);
  });

  // Quirk: offered a revision it does not know (2025-11-25), mcp-lite answers with 2025-03-26, its
  // oldest, where the spec says its newest. Without the probe's hint (a pinned legacy era) the
  // client cannot know 2025-06-18 would have worked, and speaks 2025-03-26, which both support.
  test('pinned to the legacy era, it is offered 2025-11-25, answers 2025-03-26 and works in it', async () => {
    await using server = await startMcpLiteServer(mode);
    await using client = createMcpClient(server.url, { protocolVersion: 'legacy' });
    await client.callTool('echo', { text: 'x' });
    expect(client.protocolVersion).toBe('2025-03-26');
    // 2025-03-26 has no version header; mcp-lite would reject a wrong one.
    expect(server.requests.map((r) => r.headers.get('mcp-protocol-version'))).toEqual(
      server.requests.map(() => null),
    );
  });

  test('lists the tools and calls text, structured, image and failing tools', async () => {
    await using server = await startMcpLiteServer(mode);
    await using client = createMcpClient(server.url, NEWEST);
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'add',
      'capital',
      'confirm',
      'echo',
      'fail',
      'image',
      'progress',
      'throw',
    ]);
    expect(tools.find((tool) => tool.name === 'add')?.outputSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      required: ['sum'],
    });
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
  });

  // Server quirk: mcp-lite does not turn an exception in a tool into an isError result (the
  // official SDKs and fastmcp do); it answers with JSON-RPC error -32603, which the client throws.
  test('turns a tool that throws into a JSON-RPC error, which the client throws typed', async () => {
    await using server = await startMcpLiteServer(mode);
    await using client = createMcpClient(server.url, NEWEST);
    const error = await client.callTool('throw').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({
      code: 'JSON_RPC',
      rpcCode: -32603,
      tool: 'throw',
      data: { message: 'it threw' },
    });
  });

  test('reports progress while a tool runs', async () => {
    await using server = await startMcpLiteServer(mode);
    await using client = createMcpClient(server.url, NEWEST);
    const seen: Progress[] = [];
    const result = await client.callTool(
      'progress',
      { steps: 3 },
      { onProgress: (progress) => seen.push(progress) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
    expect(seen).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  test('reads resources and templates and gets prompts', async () => {
    await using server = await startMcpLiteServer(mode);
    await using client = createMcpClient(server.url, NEWEST);
    expect(await client.listResources()).toEqual([
      { uri: 'lite://hello', name: 'hello', mimeType: 'text/plain' },
    ]);
    expect((await client.readResource('lite://hello')).contents).toEqual([
      { uri: 'lite://hello', type: 'text', text: 'hello from mcp-lite' },
    ]);
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual([
      'lite://items/{id}',
    ]);
    expect((await client.readResource('lite://items/7')).contents[0]).toMatchObject({
      text: 'item 7',
    });
    expect(await client.listPrompts()).toEqual([
      {
        name: 'greet',
        description: 'Greets someone',
        arguments: [{ name: 'name', required: true }],
      },
    ]);
    expect((await client.getPrompt('greet', { name: 'Ada' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Hello, Ada!' } },
    ]);
  });

  test('declares neither completions nor logging: the client refuses both without a request', async () => {
    await using server = await startMcpLiteServer(mode);
    await using client = createMcpClient(server.url, NEWEST);
    await client.connect();
    expect(client.serverCapabilities).toEqual({
      tools: { listChanged: true },
      resources: { listChanged: true },
      prompts: { listChanged: true },
    });
    await expect(
      client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'name', value: 'A' }),
    ).rejects.toMatchObject({
      name: 'MissingCapabilityError',
      side: 'server',
      capability: 'completions',
      method: 'completion/complete',
    });
    await expect(client.setLoggingLevel('debug')).rejects.toMatchObject({
      side: 'server',
      capability: 'logging',
    });
  });

  test('close() leaves no socket or timer behind', async () => {
    await using server = await startMcpLiteServer(mode);
    const baseline = await settledHandles();
    const client = createMcpClient(server.url, NEWEST);
    // The server runs in this process and keeps idle connections for a minute: its sockets
    // count too, and close only because the client closes its own.
    await expectCleanClose(client, baseline);
  });
});

describe('mcp-lite (stateful)', () => {
  test('opens its GET stream with the 2025-06-18 header, and hears of a tool added at run time', async () => {
    await using server = await startMcpLiteServer('stateful');
    await using client = createMcpClient(server.url, NEWEST);
    let changed = 0;
    client.on('toolsChanged', () => changed++);
    expect((await client.listTools()).map((tool) => tool.name)).not.toContain('late');
    await waitFor(() => server.requests.some((r) => r.method === 'GET' && r.status === 200));
    // mcp-lite refuses a GET whose version header is anything but 2025-06-18.
    const get = server.requests.find((r) => r.method === 'GET');
    expect(get?.headers.get('mcp-protocol-version')).toBe('2025-06-18');
    expect(get?.headers.get('mcp-session-id')).toEqual(expect.any(String));

    server.mcp.tool('late', {
      description: 'Added after the client connected',
      handler: () => ({ content: [{ type: 'text', text: 'late but here' }] }),
    });
    await waitFor(() => changed > 0);
    expect((await client.callTool('late')).content).toEqual([
      { type: 'text', text: 'late but here' },
    ]);
  });

  test('close() deletes the session it was given', async () => {
    await using server = await startMcpLiteServer('stateful');
    const client = createMcpClient(server.url, NEWEST);
    await client.listTools();
    await expectSessionDeleted(client, server.requests, '2025-06-18');
  });
});

describe('mcp-lite (stateless)', () => {
  test('gives no session id, answers the GET stream with 405, and gets no DELETE', async () => {
    await using server = await startMcpLiteServer('stateless');
    const client = createMcpClient(server.url, NEWEST);
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
