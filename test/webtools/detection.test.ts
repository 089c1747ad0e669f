/**
 * Finding a webtool: its answer to the `server/discover` probe is already a Webtools envelope,
 * so one GET for the metadata follows; a webtool that refuses POSTs outright is found through
 * the GET at the end of MCP's probes; a kept verdict or a forced dialect goes straight to the GET.
 */
import { createMcpClient, memoryVerdictStore } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { HttpResponse, http } from 'msw';
import { expect, test } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.ts';
import { handles, settledHandles } from '../helpers/handles.ts';
import { waitFor } from '../helpers/wait-for.ts';

const config = { apiKey: 'test-key' };

test('a webtool is found by its envelope answer to the first probe: two requests in all', async () => {
  await using server = await startReferenceServer();
  const verdicts = memoryVerdictStore();
  await using client = createMcpClient(server.urls.webtools, { verdicts, webtools: { config } });
  const tools = await client.listTools();
  expect(client.dialect).toBe('webtools');
  expect(client.protocolVersion).toBe('2025-06-30');
  expect(client.serverInfo).toMatchObject({
    name: 'weather',
    version: '2.0.0',
    digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
  });
  expect(client.instructions).toBe('Provides weather information and forecasts');
  expect(server.log.map((entry) => `${entry.httpMethod} ${entry.path}`)).toEqual([
    'POST /webtools/weather',
    'GET /webtools/weather/',
  ]);
  expect(await verdicts.get(server.urls.webtools)).toEqual({
    dialect: 'webtools',
    version: '2.0.0',
  });
  // Each action is a tool: its own description, requestSchema in, responseSchema out, no config.
  expect(tools.map((tool) => tool.name)).toEqual(['get_current', 'get_forecast']);
  expect(tools[1]).toEqual({
    name: 'get_forecast',
    description: 'Daily highs and lows for the next days',
    inputSchema: expect.objectContaining({ required: ['location', 'days'] }),
    outputSchema: expect.objectContaining({ required: ['location', 'days'] }),
  });
  expect(JSON.stringify(tools)).not.toContain('apiKey');
});

test('a kept verdict and a forced dialect each cost one GET', async () => {
  await using server = await startReferenceServer();
  const verdicts = memoryVerdictStore();
  await verdicts.set(server.urls.webtools, { dialect: 'webtools', version: '2.0.0' });
  {
    await using client = createMcpClient(server.urls.webtools, { verdicts, webtools: { config } });
    await client.listTools();
    expect(client.dialect).toBe('webtools');
  }
  {
    await using client = createMcpClient(server.urls.webtools, {
      dialect: 'webtools',
      webtools: { config },
    });
    await client.listTools();
  }
  expect(server.log.map((entry) => `${entry.httpMethod} ${entry.path}`)).toEqual([
    'GET /webtools/weather/',
    'GET /webtools/weather/',
  ]);
});

test('a webtool that refuses the probes with bare statuses is found by its metadata GET', async () => {
  const metadata = { name: 'bare', version: '1.0.0', actions: [{ name: 'go' }] };
  await using server = await startFaultServer([
    http.post('*/mcp', () => new HttpResponse(null, { status: 405 })),
    http.get('*/mcp', () => HttpResponse.json(metadata)),
    http.get('*/mcp/', () => HttpResponse.json(metadata)),
  ]);
  await using client = createMcpClient(server.url, {
    retry: { minDelayMs: 1 },
  });
  expect((await client.listTools()).map((tool) => tool.name)).toEqual(['go']);
  expect(client.dialect).toBe('webtools');
  // discover, initialize, the HTTP+SSE GET that got JSON, then the metadata GET.
  expect(server.calls.map((call) => call.method)).toEqual(['POST', 'POST', 'GET', 'GET']);
});

test('closing a Webtools client leaves no socket or timer behind', async () => {
  await using server = await startReferenceServer();
  const baseline = await settledHandles();
  const client = createMcpClient(server.urls.webtools, {
    dialect: 'webtools',
    webtools: { config },
  });
  await client.callTool('get_current', { location: 'Oslo' });
  expect(handles()).toBeGreaterThan(baseline);
  await client.close();
  await waitFor(() => handles() <= baseline);
  expect(handles()).toBeLessThanOrEqual(baseline);
});

test('a dialect that contradicts the protocol choice, or a bad webtools option, is a TypeError', () => {
  expect(() =>
    createMcpClient('http://localhost/x', { dialect: 'webtools', protocolVersion: '2025-06-18' }),
  ).toThrow(TypeError);
  expect(() =>
    createMcpClient('http://localhost/x', { dialect: 'mcp-stateless', protocolVersion: 'legacy' }),
  ).toThrow(TypeError);
  expect(() => createMcpClient('http://localhost/x', { dialect: 'grpc' as never })).toThrow(
    /expected `dialect` to be one of auto, mcp/,
  );
  expect(() =>
    createMcpClient('http://localhost/x', { webtools: { onChange: 'ignore' as never } }),
  ).toThrow(TypeError);
  expect(() => createMcpClient('http://localhost/x', { webtools: { version: '' } })).toThrow(
    TypeError,
  );
});
