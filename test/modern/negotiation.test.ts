/**
 * Negotiation across eras: what each kind of server costs before the first call, verdicts kept
 * per URL, the signals that never make the client step down, version hints, and the one error a
 * server that speaks nothing we know ends in.
 */
import {
  AuthorizationError,
  createMcpClient,
  HttpStatusError,
  memoryVerdictStore,
  StoreUnavailableError,
  TransportError,
  UnsupportedServerError,
} from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { HttpResponse, http } from 'msw';
import { expect, test } from 'vitest';
import { mcpServer, result, startFaultServer } from '../helpers/fault-server.ts';
import { modernServer } from '../helpers/modern-server.ts';
import { rpc } from '../helpers/rpc.ts';
import { startSdkServer } from '../helpers/sdk-server.ts';

const fast = { retry: { minDelayMs: 1, maxDelayMs: 5 } };
const methodsOf = (log: Array<{ body: unknown }>) =>
  log.map((entry) => (entry.body as { method?: string } | undefined)?.method);

test('a legacy server costs one failed probe, then initialize and notifications/initialized', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, {
    listen: false,
  });
  await client.callTool('echo', { text: 'x' });
  expect(client.dialect).toBe('mcp-stateful');
  expect(methodsOf(server.log).slice(0, 3)).toEqual([
    'server/discover',
    'initialize',
    'notifications/initialized',
  ]);
});

test('the official 1.x SDK server is legacy: 2025-11-25 after one failed probe', async () => {
  await using server = await startSdkServer('stateful');
  const verdicts = memoryVerdictStore();
  await using client = createMcpClient(server.url, { verdicts });
  await client.listTools();
  expect(client.protocolVersion).toBe('2025-11-25');
  expect(await verdicts.get(server.url)).toEqual({
    dialect: 'mcp-stateful',
    version: '2025-11-25',
  });
  const posts = server.requests.filter((r) => r.httpMethod === 'POST').map((r) => r.method);
  expect(posts.slice(0, 4)).toEqual([
    'server/discover',
    'initialize',
    'notifications/initialized',
    'tools/list',
  ]);
});

test("without a store, the verdicts are the client's own: the next client probes again", async () => {
  await using server = await startReferenceServer();
  await using first = createMcpClient(server.url, { listen: false });
  await first.connect();
  const before = server.log.length;
  await using second = createMcpClient(server.url, { listen: false });
  await second.connect();
  expect(methodsOf(server.log.slice(before))).toEqual([
    'server/discover',
    'initialize',
    'notifications/initialized',
  ]);
});

test('a verdict is kept per URL: the next client given the same store skips the probe', async () => {
  await using server = await startReferenceServer();
  const verdicts = memoryVerdictStore();
  await using first = createMcpClient(server.url, { verdicts, listen: false });
  await first.connect();
  const before = server.log.length;
  await using second = createMcpClient(server.url, { verdicts, listen: false });
  await second.connect();
  expect(methodsOf(server.log.slice(before))).toEqual(['initialize', 'notifications/initialized']);
});

test('a modern server whose discover answer is public and fresh is not probed by the next client', async () => {
  await using server = await startReferenceServer();
  const verdicts = memoryVerdictStore();
  await using first = createMcpClient(server.urls.modern, { verdicts, listen: false });
  await first.connect();
  expect(await verdicts.get(server.urls.modern)).toMatchObject({
    dialect: 'mcp-stateless',
    discovered: { cacheScope: 'public' },
  });
  const before = server.log.length;
  await using second = createMcpClient(server.urls.modern, { verdicts, listen: false });
  await second.listTools();
  // Every page of the listing, and nothing before it.
  expect(new Set(methodsOf(server.log.slice(before)))).toEqual(new Set(['tools/list']));
  expect(second.serverInfo).toEqual(first.serverInfo);
  expect(second.serverCapabilities).toEqual(first.serverCapabilities);
});

test('a kept discover answer past its ttlMs is asked for again', async () => {
  await using server = await startReferenceServer();
  const verdicts = memoryVerdictStore();
  await using first = createMcpClient(server.urls.modern, { verdicts, listen: false });
  await first.connect();
  const kept = await verdicts.get(server.urls.modern);
  await verdicts.set(server.urls.modern, { ...kept!, freshUntil: new Date(0).toISOString() });
  const before = server.log.length;
  await using second = createMcpClient(server.urls.modern, { verdicts, listen: false });
  await second.listTools();
  expect(methodsOf(server.log.slice(before)).slice(0, 2)).toEqual([
    'server/discover',
    'tools/list',
  ]);
});

test('a verdict store that fails costs a warning, never the call; memory stands in for it', async () => {
  await using server = await startReferenceServer();
  const broken = {
    get: () => Promise.reject(new Error('store down')),
    set: () => Promise.reject(new Error('store down')),
    delete: () => Promise.reject(new Error('store down')),
  };
  await using first = createMcpClient(server.url, { verdicts: broken, listen: false });
  const warnings: Error[] = [];
  first.on('warning', (error) => warnings.push(error));
  expect((await first.callTool('echo', { text: 'x' })).isError).toBe(false);
  expect(warnings.map((error) => error.message)).toEqual([
    'store unavailable: verdicts.get store down',
    'store unavailable: verdicts.set store down',
  ]);
  expect(warnings[0]).toBeInstanceOf(StoreUnavailableError);
  // The verdict went to the store's stand-in as well: the next client with the store skips the
  // failed probe.
  const before = server.log.length;
  await using second = createMcpClient(server.url, { verdicts: broken, listen: false });
  await second.connect();
  expect(methodsOf(server.log.slice(before))).toEqual(['initialize', 'notifications/initialized']);
});

test('a kept verdict that fails is dropped and the server probed again', async () => {
  await using server = await startFaultServer(modernServer());
  const verdicts = memoryVerdictStore();
  await verdicts.set(server.url, { dialect: 'mcp-stateful', version: '2025-11-25' });
  await using client = createMcpClient(server.url, { verdicts, listen: false, ...fast });
  await client.connect();
  expect(client.dialect).toBe('mcp-stateless');
  expect(await verdicts.get(server.url)).toEqual({
    dialect: 'mcp-stateless',
    version: '2026-07-28',
  });
  expect(server.calls.map((call) => call.body?.['method'])).toEqual([
    'initialize',
    'server/discover',
  ]);
});

test.each([
  { era: 'legacy', version: '2025-11-25' },
  { era: 'legacy', version: '2024-11-05', transport: 'http+sse' },
  { era: 'webtools', version: '2.0.0' },
])('a verdict an older client kept ($era) is dropped, and the server probed', async (old) => {
  await using server = await startFaultServer(modernServer());
  const verdicts = memoryVerdictStore();
  await verdicts.set(server.url, old as never);
  await using client = createMcpClient(server.url, { verdicts, listen: false, ...fast });
  await client.connect();
  expect(client.dialect).toBe('mcp-stateless');
  expect(await verdicts.get(server.url)).toEqual({
    dialect: 'mcp-stateless',
    version: '2026-07-28',
  });
  expect(server.calls.map((call) => call.body?.['method'])).toEqual(['server/discover']);
});

test('version hints in the failed probe choose the revision offered to initialize', async () => {
  await using server = await startReferenceServer({ versions: ['2025-06-18', '2025-03-26'] });
  await using client = createMcpClient(server.url, {
    listen: false,
  });
  await client.connect();
  const initialize = server.log.find(
    (entry) => (entry.body as { method?: string }).method === 'initialize',
  );
  expect(rpc(initialize?.body).params?.['protocolVersion']).toBe('2025-06-18');
  expect(client.protocolVersion).toBe('2025-06-18');
});

test('a dual-era server whose only common revisions are legacy ones is spoken to in the legacy way', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'server/discover'
        ? result(message.id, { supportedVersions: ['2025-11-25', '2099-01-01'] })
        : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  await client.connect();
  expect(client.dialect).toBe('mcp-stateful');
  expect(client.protocolVersion).toBe('2025-11-25');
});

test.each([401, 403])(
  'a %i to the probe is the answer, never a reason to step down',
  async (status) => {
    await using server = await startFaultServer([
      http.post('*/mcp', () => new HttpResponse('no', { status })),
    ]);
    await using client = createMcpClient(server.url, fast);
    const error = await client.connect().catch((e: unknown) => e);
    // Without `auth`, the refusal says the server wants credentials; the probe's answer is its cause.
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({ reason: 'credentials_required' });
    expect((error as Error).cause).toBeInstanceOf(HttpStatusError);
    expect((error as Error).cause).toMatchObject({ status, method: 'server/discover' });
    expect(server.callsOf('initialize')).toHaveLength(0);
  },
);

test('a 503 to the probe is retried, and the server found modern after it', async () => {
  let refused = 0;
  await using server = await startFaultServer([
    http.post('*/mcp', () => (refused++ < 2 ? new HttpResponse(null, { status: 503 }) : undefined)),
    ...modernServer(),
  ]);
  await using client = createMcpClient(server.url, {
    listen: false,
    ...fast,
  });
  await client.connect();
  expect(client.dialect).toBe('mcp-stateless');
  expect(server.callsOf('initialize')).toHaveLength(0);
});

test('a refused connection is a TransportError, never a step down', async () => {
  await using server = await startFaultServer([]);
  const url = server.url;
  await server.close();
  await using client = createMcpClient(url, {
    retry: { retries: 1, minDelayMs: 1 },
  });
  await expect(client.connect()).rejects.toBeInstanceOf(TransportError);
});

test('a server that speaks nothing we know ends in one UnsupportedServerError saying what each probe got', async () => {
  await using server = await startFaultServer([
    http.post('*/mcp', () => new HttpResponse('Not Found', { status: 404 })),
  ]);
  await using client = createMcpClient(server.url, fast);
  const error = await client.connect().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnsupportedServerError);
  const probes = (error as UnsupportedServerError).probes;
  expect(probes).toHaveLength(5);
  expect(probes[0]).toMatch(/^server\/discover: HTTP 404/);
  expect(probes[1]).toMatch(/^initialize: server answered HTTP 404/);
  expect(probes[2]).toMatch(/^GET \(HTTP\+SSE\): server answered HTTP 501/);
  // Then MCP-lite's two discovery endpoints under the URL.
  expect(probes[3]).toMatch(/^POST \S+\/mcp\/listtools: HTTP 501/);
  expect(probes[4]).toMatch(/^POST \S+\/mcp\/tools: HTTP 501/);
});

test('a pinned modern revision sends no probe at all', async () => {
  await using server = await startFaultServer(modernServer());
  await using client = createMcpClient(server.url, {
    protocolVersion: '2026-07-28',
    listen: false,
  });
  await client.listTools();
  expect(server.calls.map((call) => call.body?.['method'])).toEqual(['tools/list']);
});

test('a pinned legacy era skips the modern probe', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { protocolVersion: 'legacy', listen: false });
  await client.connect();
  expect(methodsOf(server.log)).toEqual(['initialize', 'notifications/initialized']);
});

test('probing never reaches the application as a warning or an event', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const seen: string[] = [];
  client.on('warning', (error) => seen.push(error.message));
  client.on('notification', (method) => seen.push(method));
  await client.connect();
  await client.listTools();
  expect(seen).toEqual([]);
});
