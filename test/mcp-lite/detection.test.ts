/**
 * Finding MCP-lite (seed 000): after MCP's probes at a base URL, at once when the URL names one
 * of its endpoints or a verdict is kept, and without any probe when the dialect is forced.
 */
import { createMcpClient, memoryVerdictStore, UnsupportedServerError } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { HttpResponse, http } from 'msw';
import { expect, test } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.ts';
import { handles, settledHandles } from '../helpers/handles.ts';
import { waitFor } from '../helpers/wait-for.ts';

const fast = { retry: { minDelayMs: 1, maxDelayMs: 2 } };

test('at its base URL, MCP-lite is found after MCP probes, and its listing is the first listTools', async () => {
  await using server = await startReferenceServer();
  const verdicts = memoryVerdictStore();
  await using client = createMcpClient(server.urls.mcpLite, { verdicts, ...fast });
  const tools = await client.listTools();
  expect(client.dialect).toBe('mcp-lite');
  expect(client.protocolVersion).toBe('0.042');
  // server/discover, initialize, the HTTP+SSE GET, then the listing: nothing more for listTools.
  expect(server.log.map((entry) => `${entry.httpMethod} ${entry.path}`)).toEqual([
    'POST /mcp-lite/v1',
    'POST /mcp-lite/v1',
    'GET /mcp-lite/v1',
    'POST /mcp-lite/v1/listtools',
  ]);
  expect(server.log[3]?.body).toEqual({});
  expect(tools.find((tool) => tool.name === 'search_documents')).toMatchObject({
    '@type': 'query',
    category: 'query',
    description: 'Search through available documents',
  });
  // The redeem system tool is recognised: the server can hand out promises.
  expect(tools.find((tool) => tool.name === 'redeem')?.category).toBe('system');
  expect(client.serverCapabilities).toEqual({ tools: {}, promises: { redeem: 'redeem' } });
  expect(await verdicts.get(server.urls.mcpLite)).toEqual({
    dialect: 'mcp-lite',
    version: '0.042',
  });
});

test('a kept verdict goes straight to the listing', async () => {
  await using server = await startReferenceServer();
  const verdicts = memoryVerdictStore();
  await verdicts.set(server.urls.mcpLite, { dialect: 'mcp-lite', version: '0.042' });
  await using client = createMcpClient(server.urls.mcpLite, { verdicts });
  await client.listTools();
  expect(client.dialect).toBe('mcp-lite');
  expect(server.log.map((entry) => entry.path)).toEqual(['/mcp-lite/v1/listtools']);
});

test('a URL naming /calltools starts at MCP-lite: one request before the first call', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(`${server.urls.mcpLite}/calltools`, {});
  const result = await client.callTool('echo', { text: 'hi' });
  expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
  expect(server.log.map((entry) => entry.path)).toEqual([
    '/mcp-lite/v1/listtools',
    '/mcp-lite/v1/calltools',
  ]);
});

test('the example endpoints work too: /tools answers { tools }, and calls then go to /rpc', async () => {
  await using server = await startFaultServer([
    http.post('*/lite/tools', () =>
      HttpResponse.json({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }),
    ),
    http.post('*/lite/rpc', async ({ request }) => {
      const body = (await request.json()) as { id: string };
      return HttpResponse.json({
        jsonrpc: '2.0',
        id: body.id,
        result: { content: [{ type: 'text', text: 'from rpc' }] },
      });
    }),
  ]);
  const url = server.url.replace(/\/mcp$/, '/lite');
  await using client = createMcpClient(url, { dialect: 'mcp-lite', ...fast });
  expect((await client.listTools()).map((tool) => tool.name)).toEqual(['echo']);
  expect((await client.callTool('echo')).content).toEqual([{ type: 'text', text: 'from rpc' }]);
  // listtools missed, tools answered, and the call went to tools' partner /rpc first (a POST to
  // /calltools would have met no handler, a 501, and failed the call).
  expect(server.calls.map((call) => call.body)).toEqual([
    {},
    {},
    expect.objectContaining({ method: 'tools/call', params: { name: 'echo', arguments: {} } }),
  ]);
});

test('a forced MCP-lite dialect sends no MCP probe', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
  await client.connect();
  expect(client.dialect).toBe('mcp-lite');
  expect(server.log.map((entry) => entry.path)).toEqual(['/mcp-lite/v1/listtools']);
});

test('when nothing answers, the error lists every probe, MCP-lite endpoints included', async () => {
  await using server = await startFaultServer([
    http.all('*', () => new HttpResponse('Not Found', { status: 404 })),
  ]);
  await using client = createMcpClient(server.url, fast);
  const error = await client.connect().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnsupportedServerError);
  const probes = (error as UnsupportedServerError).probes;
  expect(probes.map((probe) => probe.split(':')[0])).toEqual([
    'server/discover',
    'initialize',
    'GET (HTTP+SSE)',
    'POST http',
    'POST http',
  ]);
  expect(probes[3]).toMatch(/\/mcp\/listtools: HTTP 404$/);
  expect(probes[4]).toMatch(/\/mcp\/tools: HTTP 404$/);
});

test('a forced MCP-lite dialect that finds no listing says what each endpoint got', async () => {
  await using server = await startFaultServer([
    http.post('*', () => HttpResponse.json({ hello: 'world' })),
  ]);
  await using client = createMcpClient(server.url, { dialect: 'mcp-lite', ...fast });
  const error = await client.connect().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnsupportedServerError);
  expect((error as UnsupportedServerError).probes).toEqual([
    expect.stringMatching(/listtools: HTTP 200, not a tool list/),
    expect.stringMatching(/tools: HTTP 200, not a tool list/),
  ]);
});

test('a listed tool without a name is dropped with a warning; the others are kept', async () => {
  await using server = await startFaultServer([
    http.post('*/listtools', () =>
      HttpResponse.json([{ description: 'no name' }, { name: 'ok', inputSchema: {} }]),
    ),
  ]);
  await using client = createMcpClient(server.url, { dialect: 'mcp-lite' });
  const warnings: Error[] = [];
  client.on('warning', (error) => warnings.push(error));
  expect((await client.listTools()).map((tool) => tool.name)).toEqual(['ok']);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]?.message).toMatch(/tool without a name dropped/);
});

test('closing an MCP-lite client leaves no socket or timer behind', async () => {
  await using server = await startReferenceServer();
  const baseline = await settledHandles();
  const client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
  await client.callTool('echo', { text: 'x' });
  expect(handles()).toBeGreaterThan(baseline);
  await client.close();
  await waitFor(() => handles() <= baseline);
  expect(handles()).toBeLessThanOrEqual(baseline);
});
