/**
 * The client against the reference server's 2026-07-28 side: the dual-era endpoint (started with
 * `dualEra`), the modern-only endpoint and the HTTP+SSE endpoint, each reached by the client's own
 * negotiation.
 */
import {
  createMcpClient,
  type McpClient,
  MissingCapabilityError,
  ResourceNotFoundError,
  UnsupportedServerError,
} from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { expect, test } from 'vitest';
import { handles, settledHandles } from '../helpers/handles.ts';
import { waitFor } from '../helpers/wait-for.ts';

const options = () => ({ retry: { minDelayMs: 1, maxDelayMs: 5 } });

/** The JSON-RPC methods the server received, in order. */
function methods(server: ReferenceServer): unknown[] {
  return server.log.map((entry) => (entry.body as { method?: unknown } | undefined)?.method);
}

function modernClient(url: string, listen = false): McpClient {
  return createMcpClient(url, { ...options(), listen });
}

test('the dual-era endpoint is found with one server/discover and spoken to at 2026-07-28', async () => {
  await using server = await startReferenceServer({ dualEra: true });
  await using client = modernClient(server.url);
  await client.connect();
  expect(methods(server)).toEqual(['server/discover']);
  expect(client.dialect).toBe('mcp-stateless');
  expect(client.protocolVersion).toBe('2026-07-28');
  expect(client.serverInfo).toMatchObject({ name: 'toolwire-reference-server' });
  expect(typeof client.instructions).toBe('string');
  await client.callTool('echo', { text: 'hi' });
  expect(methods(server).filter((method) => method === 'server/discover')).toHaveLength(1);
  expect(methods(server)).not.toContain('initialize');
});

test('tools of every kind, with progress', async () => {
  await using server = await startReferenceServer({ dualEra: true });
  await using client = modernClient(server.url);
  // The protocol's result, not the wire's: no resultType, no server-info _meta.
  expect(await client.callTool('echo', { text: 'hello' })).toEqual({
    content: [{ type: 'text', text: 'hello' }],
    isError: false,
  });
  expect((await client.callTool('add', { a: 2, b: 40 })).structuredContent).toEqual({ sum: 42 });
  const media = await client.callTool('media');
  expect(media.content.map((block) => block.type)).toEqual([
    'image',
    'audio',
    'resource_link',
    'resource',
  ]);
  expect(await client.callTool('fail', { message: 'nope' })).toMatchObject({ isError: true });
  const seen: number[] = [];
  const done = await client.callTool(
    'progress',
    { steps: 3, delayMs: 1 },
    { onProgress: (p) => seen.push(p.progress) },
  );
  expect(done.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
  expect(seen).toEqual([1, 2, 3]);
});

test('resources (an unknown one is a ResourceNotFoundError), prompts and completion', async () => {
  await using server = await startReferenceServer({ dualEra: true });
  await using client = modernClient(server.url);
  expect((await client.listResources()).map((resource) => resource.uri)).toContain(
    'ref://items/12',
  );
  expect((await client.listResourceTemplates()).map((template) => template.uriTemplate)).toContain(
    'ref://items/{id}',
  );
  expect((await client.readResource('ref://static/hello')).contents).toEqual([
    { uri: 'ref://static/hello', mimeType: 'text/plain', text: 'hello, world' },
  ]);
  const missing = await client.readResource('ref://nowhere').catch((e: unknown) => e);
  expect(missing).toBeInstanceOf(ResourceNotFoundError);
  expect(missing).toMatchObject({ rpcCode: -32602 });
  expect((await client.listPrompts()).map((prompt) => prompt.name)).toEqual(['greet', 'summarize']);
  expect((await client.getPrompt('greet', { name: 'Ada', style: 'pirate' })).messages).toEqual([
    { role: 'user', content: { type: 'text', text: 'Greet Ada the way a pirate would.' } },
  ]);
  const completion = await client.complete(
    { type: 'ref/prompt', name: 'greet' },
    { name: 'style', value: 'p' },
  );
  expect(completion).toMatchObject({ completion: { values: ['pirate'] } });
});

test('a parameter marked x-mcp-header reaches the server as its Mcp-Param header', async () => {
  await using server = await startReferenceServer({ dualEra: true });
  await using client = modernClient(server.url);
  const result = await client.callTool('regional', { region: 'Zürich', query: 'q' });
  expect(result.content).toEqual([{ type: 'text', text: 'region Zürich: q' }]);
  const call = server.log.find(
    (entry) => (entry.body as { method?: string }).method === 'tools/call',
  );
  expect(call?.headers['mcp-param-region']).toBe(
    `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
  );
  expect(call?.headers['mcp-name']).toBe('regional');
});

test('a tool needing elicitation is refused for a client that declared none (-32021)', async () => {
  // The client declares no capabilities until it has handlers, and a server must not ask for
  // input the client did not declare: so the answer is -32021, not input_required.
  await using server = await startReferenceServer({ dualEra: true });
  await using client = modernClient(server.url);
  const error = await client.callTool('ask_name').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MissingCapabilityError);
  expect((error as MissingCapabilityError).requiredCapabilities).toEqual({ elicitation: {} });
});

test('ttlMs is honoured: a fresh tool list is not asked for again', async () => {
  await using server = await startReferenceServer({ dualEra: true });
  await using client = modernClient(server.url);
  const listings = () => methods(server).filter((method) => method === 'tools/list').length;
  await client.listTools();
  const pages = listings();
  expect(pages).toBeGreaterThan(1);
  await client.listTools();
  expect(listings()).toBe(pages);
});

test('subscriptions/listen delivers tools list_changed and resources/updated', async () => {
  await using server = await startReferenceServer({ dualEra: true });
  await using client = modernClient(server.url, true);
  await client.listTools();
  const toolsChanged = new Promise<void>((resolve) => client.on('toolsChanged', () => resolve()));
  const updated = new Promise<unknown>((resolve) => client.on('resourceUpdated', resolve));
  await client.subscribeResource('ref://counter');
  const withCounter = () =>
    server.log.some(
      (entry) =>
        (entry.body as { method?: string }).method === 'subscriptions/listen' &&
        JSON.stringify(entry.body).includes('ref://counter'),
    );
  await waitFor(withCounter);
  // The listen stream is live once its acknowledgement is out; a short wait covers that.
  await new Promise((resolve) => setTimeout(resolve, 50));
  await client.callTool('toggle_tool');
  await toolsChanged;
  expect((await client.listTools()).map((tool) => tool.name)).toContain('bonus');
  await client.callTool('bump');
  expect(await updated).toBe('ref://counter');
  expect(methods(server)).not.toContain('resources/subscribe');
});

test('the log level travels in _meta and log messages arrive; nothing of the legacy era is sent', async () => {
  await using server = await startReferenceServer({ dualEra: true });
  await using client = modernClient(server.url);
  const logs: unknown[] = [];
  client.on('log', (entry) => logs.push(entry));
  await client.setLoggingLevel('warning');
  await client.callTool('log', { level: 'info', message: 'quiet' });
  await client.callTool('log', { level: 'error', message: 'loud' });
  await client.ping();
  expect(logs).toEqual([expect.objectContaining({ level: 'error', data: 'loud' })]);
  const call = server.log.find(
    (entry) => (entry.body as { method?: string }).method === 'tools/call',
  );
  expect(JSON.stringify(call?.body)).toContain('"io.modelcontextprotocol/logLevel":"warning"');
  await client.close();
  for (const legacy of [
    'initialize',
    'ping',
    'logging/setLevel',
    'notifications/initialized',
    'resources/subscribe',
  ]) {
    expect(methods(server)).not.toContain(legacy);
  }
  expect(server.log.every((entry) => entry.httpMethod === 'POST')).toBe(true);
});

test('aborting a call closes its stream, and the server records the cancellation', async () => {
  await using server = await startReferenceServer({ dualEra: true });
  await using client = modernClient(server.url);
  const controller = new AbortController();
  const call = client.callTool('slow', { ms: 60_000 }, { signal: controller.signal });
  await waitFor(() => methods(server).includes('tools/call'));
  controller.abort();
  await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
  await waitFor(() => server.cancelled.length === 1);
  const sent = server.log.find(
    (entry) => (entry.body as { method?: string }).method === 'tools/call',
  );
  expect(server.cancelled[0]?.requestId).toBe((sent?.body as { id?: unknown } | undefined)?.id);
  expect(methods(server)).not.toContain('notifications/cancelled');
});

test('the modern-only endpoint negotiates 2026-07-28 too', async () => {
  await using server = await startReferenceServer();
  await using client = modernClient(server.urls.modern);
  expect((await client.callTool('echo', { text: 'm' })).content).toEqual([
    { type: 'text', text: 'm' },
  ]);
  expect(client.protocolVersion).toBe('2026-07-28');
  expect(methods(server)[0]).toBe('server/discover');
  expect(methods(server)).not.toContain('initialize');
});

test('the HTTP+SSE endpoint is reached by the fallback, and works', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.sse, options());
  const seen: number[] = [];
  const result = await client.callTool(
    'progress',
    { steps: 2, delayMs: 1 },
    { onProgress: (p) => seen.push(p.progress) },
  );
  expect(client.dialect).toBe('mcp-sse');
  expect(client.protocolVersion).toBe('2024-11-05');
  expect(result.content).toEqual([{ type: 'text', text: 'done after 2 steps' }]);
  expect(seen).toEqual([1, 2]);
  expect((await client.callTool('echo', { text: 'over sse' })).content).toEqual([
    { type: 'text', text: 'over sse' },
  ]);
  expect(server.log.slice(0, 3).map((entry) => [entry.httpMethod, entry.path])).toEqual([
    ['POST', '/sse'],
    ['POST', '/sse'],
    ['GET', '/sse'],
  ]);
});

test('an initialize refused with 404 and a non-modern JSON-RPC body still tries HTTP+SSE', async () => {
  // The transport spec: on 400, 404 or 405 whose body is not a recognized modern error, the
  // client issues a GET. /messages without a session answers 404 with a -32000 body, and its GET
  // is refused (405), so the client must end in UnsupportedServerError listing the GET attempt.
  await using server = await startReferenceServer();
  await using client = createMcpClient(`${new URL(server.url).origin}/messages`, options());
  const error = await client.connect().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnsupportedServerError);
  expect(server.log.map((entry) => entry.httpMethod)).toContain('GET');
});

test('close() leaves no socket or timer behind, with a listen stream open', async () => {
  await using server = await startReferenceServer({ dualEra: true });
  const baseline = await settledHandles();
  const client = createMcpClient(server.url, options());
  await client.connect();
  await client.subscribeResource('ref://counter');
  await client.callTool('echo', { text: 'x' });
  await client.close();
  await waitFor(() => handles() <= baseline, 2_000);
  expect(handles()).toBeLessThanOrEqual(baseline);
});
