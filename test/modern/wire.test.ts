/**
 * MCP 2026-07-28 on the wire: the _meta envelope on every request, the mirrored headers, the
 * handling of resultType, version and header errors, cache hints, and that nothing of the
 * legacy era is ever sent to a modern server.
 */
import {
  createMcpClient,
  HeaderMismatchError,
  InputRequiredError,
  MalformedMessageError,
  MissingCapabilityError,
  ResourceNotFoundError,
} from '@toolwire/client';
import { HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.ts';
import { handles } from '../helpers/handles.ts';
import { modernServer } from '../helpers/modern-server.ts';
import { metaOf } from '../helpers/rpc.ts';
import { waitFor } from '../helpers/wait-for.ts';

const options = () => ({ retry: { minDelayMs: 1, maxDelayMs: 5 } });

test('a modern server is found with one server/discover and spoken to at 2026-07-28', async () => {
  await using server = await startFaultServer(modernServer());
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  await client.callTool('echo', { text: 'hi' });
  expect(client.dialect).toBe('mcp-stateless');
  expect(client.protocolVersion).toBe('2026-07-28');
  expect(client.serverInfo).toMatchObject({ name: 'modern-test', version: '2.0.0' });
  expect(client.instructions).toBe('a modern test server');
  expect(server.calls.map((call) => call.body?.['method'])).toEqual([
    'server/discover',
    'tools/list',
    'tools/call',
  ]);
});

test('every request carries version, client info and capabilities in _meta, and the version header equal to it', async () => {
  await using server = await startFaultServer(modernServer());
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  await client.callTool('echo', { text: 'hi' });
  for (const call of server.calls) {
    const meta = metaOf(call.body);
    expect(meta).toMatchObject({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'toolwire' },
      'io.modelcontextprotocol/clientCapabilities': {},
    });
    expect(call.headers.get('mcp-protocol-version')).toBe('2026-07-28');
    expect(call.headers.get('mcp-method')).toBe(call.body?.['method']);
    expect(call.headers.get('mcp-session-id')).toBeNull();
  }
});

test('Mcp-Name mirrors the tool name, base64-encoded when it is not plain ASCII', async () => {
  const odd = { name: 'grüße', inputSchema: { type: 'object' } };
  await using server = await startFaultServer(modernServer({ tools: [odd] }));
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  await client.callTool('echo', { text: 'x' });
  await client.callTool('grüße', {});
  const names = server.callsOf('tools/call').map((call) => call.headers.get('mcp-name'));
  expect(names).toEqual(['echo', `=?base64?${Buffer.from('grüße').toString('base64')}?=`]);
});

test('parameters marked x-mcp-header travel as Mcp-Param headers, encoded, and absent ones are left out', async () => {
  await using server = await startFaultServer(modernServer());
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  await client.callTool('regional', { region: 'us-west1', limits: { count: 42 }, dryRun: false });
  await client.callTool('regional', { region: ' padded ', dryRun: null });
  const [first, second] = server.callsOf('tools/call');
  expect(first?.headers.get('mcp-param-region')).toBe('us-west1');
  expect(first?.headers.get('mcp-param-count')).toBe('42');
  expect(first?.headers.get('mcp-param-dry-run')).toBe('false');
  expect(second?.headers.get('mcp-param-region')).toBe(
    `=?base64?${Buffer.from(' padded ').toString('base64')}?=`,
  );
  expect(second?.headers.get('mcp-param-count')).toBeNull();
  expect(second?.headers.get('mcp-param-dry-run')).toBeNull();
});

test.each([
  [
    'a number parameter',
    { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } },
  ],
  [
    'a marking inside items',
    {
      type: 'object',
      properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } },
    },
  ],
  [
    'a marking under anyOf',
    { type: 'object', anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] },
  ],
  [
    'a name that is not a token',
    { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'Bad Name' } } },
  ],
  [
    'a duplicate name',
    {
      type: 'object',
      properties: {
        a: { type: 'string', 'x-mcp-header': 'X' },
        b: { type: 'string', 'x-mcp-header': 'x' },
      },
    },
  ],
])(
  'a tool with %s is dropped from listTools() with a warning, the others kept',
  async (_, inputSchema) => {
    await using server = await startFaultServer(
      modernServer({ tools: [{ name: 'broken', inputSchema }] }),
    );
    await using client = createMcpClient(server.url, { ...options(), listen: false });
    const warnings: Error[] = [];
    client.on('warning', (warning) => warnings.push(warning));
    const names = (await client.listTools()).map((tool) => tool.name);
    expect(names).toEqual(['echo', 'regional', 'confirm']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('"broken" dropped');
  },
);

test('input_required with no handler is an InputRequiredError naming what was asked', async () => {
  await using server = await startFaultServer(modernServer());
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  const error = await client.callTool('confirm').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputRequiredError);
  expect((error as InputRequiredError).requests).toEqual(['elicitation/create (form)']);
});

test('an unknown resultType is a MalformedMessageError, never taken for a result', async () => {
  await using server = await startFaultServer(
    modernServer({
      override: (message) =>
        message.method === 'tools/call'
          ? HttpResponse.json({
              jsonrpc: '2.0',
              id: message.id,
              result: { resultType: 'surprise', content: [] },
            })
          : undefined,
    }),
  );
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  await expect(client.callTool('echo')).rejects.toBeInstanceOf(MalformedMessageError);
});

test("a result is the protocol's: resultType and the server-info _meta entry stay on the wire, the tool's own _meta stays", async () => {
  await using server = await startFaultServer(
    modernServer({
      override: (message) =>
        message.method === 'tools/call'
          ? HttpResponse.json({
              jsonrpc: '2.0',
              id: message.id,
              result: {
                resultType: 'complete',
                content: [{ type: 'text', text: 'hi' }],
                _meta: {
                  'io.modelcontextprotocol/serverInfo': { name: 'modern-test', version: '2.0.0' },
                  'com.example/trace': 'abc',
                },
              },
            })
          : undefined,
    }),
  );
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  const result = await client.callTool('echo');
  expect(result).toEqual({
    content: [{ type: 'text', text: 'hi' }],
    isError: false,
    _meta: { 'com.example/trace': 'abc' },
  });
});

test('an absent resultType counts as complete', async () => {
  await using server = await startFaultServer(
    modernServer({
      override: (message) =>
        message.method === 'tools/call'
          ? HttpResponse.json({
              jsonrpc: '2.0',
              id: message.id,
              result: { content: [{ type: 'text', text: 'old style' }] },
            })
          : undefined,
    }),
  );
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  expect((await client.callTool('echo')).content).toEqual([{ type: 'text', text: 'old style' }]);
});

test('-32020 and -32021 become typed errors carrying the server data', async () => {
  await using server = await startFaultServer(
    modernServer({
      override: (message) => {
        if (message.method !== 'tools/call') return undefined;
        const name = message.params?.['name'];
        if (name === 'echo') {
          return HttpResponse.json(
            {
              jsonrpc: '2.0',
              id: message.id,
              error: {
                code: -32021,
                message: 'needs elicitation',
                data: { requiredCapabilities: { elicitation: {} } },
              },
            },
            { status: 400 },
          );
        }
        return HttpResponse.json(
          { jsonrpc: '2.0', id: message.id, error: { code: -32020, message: 'Header mismatch' } },
          { status: 400 },
        );
      },
    }),
  );
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  const missing = await client.callTool('echo').catch((e: unknown) => e);
  expect(missing).toBeInstanceOf(MissingCapabilityError);
  expect(missing).toMatchObject({
    code: 'MISSING_CAPABILITY',
    requiredCapabilities: { elicitation: {} },
  });
  const mismatch = await client.callTool('regional', { region: 'x' }).catch((e: unknown) => e);
  expect(mismatch).toBeInstanceOf(HeaderMismatchError);
  // A mismatch may mean the tool's schema changed: the list is fetched again and the call retried once.
  expect(
    server
      .callsOf('tools/call')
      .filter(
        (call) =>
          call.body?.['params'] && (call.body['params'] as { name: string }).name === 'regional',
      ),
  ).toHaveLength(2);
  expect(server.callsOf('tools/list')).toHaveLength(2);
});

test('resource not found (-32602 here, -32002 before) is one ResourceNotFoundError', async () => {
  await using server = await startFaultServer(modernServer());
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  const error = await client.readResource('file:///nope').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ResourceNotFoundError);
  expect(error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', rpcCode: -32602 });
});

test('ttlMs is freshness at read time: a fresh list is served from cache, a stale one is asked again', async () => {
  await using server = await startFaultServer(modernServer({ ttlMs: 60_000 }));
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  await client.listTools();
  await client.listTools();
  expect(server.callsOf('tools/list')).toHaveLength(1);
  await using zero = await startFaultServer(modernServer({ ttlMs: 0 }));
  await using again = createMcpClient(zero.url, { ...options(), listen: false });
  await again.listTools();
  await again.listTools();
  expect(zero.callsOf('tools/list')).toHaveLength(2);
});

test('a stale tool list is still used to look a tool up for a call, without listing again', async () => {
  await using server = await startFaultServer(modernServer({ ttlMs: 0 }));
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  await client.listTools();
  for (let i = 0; i < 3; i++) await client.callTool('echo', { text: String(i) });
  expect(server.callsOf('tools/list')).toHaveLength(1);
});

test('the log level travels in _meta and ping becomes server/discover: nothing of the legacy era is sent', async () => {
  await using server = await startFaultServer(modernServer());
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  await client.setLoggingLevel('warning');
  await client.ping();
  await client.callTool('echo');
  const methods = server.calls.map((call) => call.body?.['method']);
  expect(methods).not.toContain('logging/setLevel');
  expect(methods).not.toContain('ping');
  expect(methods).not.toContain('notifications/initialized');
  expect(server.calls.every((call) => call.method === 'POST')).toBe(true);
  const [call] = server.callsOf('tools/call');
  expect(metaOf(call?.body)['io.modelcontextprotocol/logLevel']).toBe('warning');
  await client.close();
  expect(server.calls.some((c) => c.method === 'DELETE' || c.method === 'GET')).toBe(false);
});

test('-32022 listing no revision the client speaks is a typed UnsupportedVersionError, never a silent downgrade', async () => {
  let rejected = 0;
  await using server = await startFaultServer(
    modernServer({
      override: (message) => {
        if (message.method !== 'tools/call' || rejected > 0) return undefined;
        rejected += 1;
        return HttpResponse.json(
          {
            jsonrpc: '2.0',
            id: message.id,
            error: {
              code: -32022,
              message: 'Unsupported protocol version',
              data: { supported: ['2099-01-01'], requested: '2026-07-28' },
            },
          },
          { status: 400 },
        );
      },
    }),
  );
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  // No revision in common: a typed error naming both sides, not a silent downgrade.
  await expect(client.callTool('echo')).rejects.toMatchObject({
    code: 'UNSUPPORTED_VERSION',
    offered: '2099-01-01',
    supported: ['2026-07-28'],
  });
});

test('-32022 naming the revision a request carried is tried once more: concurrent requests may all be refused while one switches', async () => {
  let refusals = 0;
  const refuseFirstTwo = (message: { id?: string | number; method?: string }) => {
    if (message.method !== 'tools/call' || refusals >= 2) return undefined;
    refusals += 1;
    return HttpResponse.json(
      {
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: -32022,
          message: 'Unsupported protocol version',
          data: { supported: ['2026-07-28'], requested: '2026-07-28' },
        },
      },
      { status: 400 },
    );
  };
  await using server = await startFaultServer(modernServer({ override: refuseFirstTwo }));
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  await client.listTools();
  // Both calls go out before either refusal is back; each is sent again, once.
  const [first, second] = await Promise.all([
    client.callTool('echo', { text: 'a' }),
    client.callTool('echo', { text: 'b' }),
  ]);
  expect([first.isError, second.isError]).toEqual([false, false]);
  expect(server.callsOf('tools/call')).toHaveLength(4);
});

test('aborting a call closes its stream and sends no notification', async () => {
  await using server = await startFaultServer(
    modernServer({
      override: (message) =>
        message.method === 'tools/call' ? new Promise<undefined>(() => {}) : undefined,
    }),
  );
  await using client = createMcpClient(server.url, { ...options(), listen: false });
  const controller = new AbortController();
  const call = client.callTool('echo', {}, { signal: controller.signal });
  await waitFor(() => server.callsOf('tools/call').length === 1);
  controller.abort();
  await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(server.callsOf('notifications/cancelled')).toHaveLength(0);
});

test('subscriptions/listen delivers change notifications, which drop the tool cache', async () => {
  await using server = await startFaultServer(
    modernServer({
      ttlMs: 60_000,
      listenNotifications: [{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }],
    }),
  );
  await using client = createMcpClient(server.url);
  const changed = new Promise<void>((resolve) => client.on('toolsChanged', resolve));
  await client.connect();
  await changed;
  const [listen] = server.callsOf('subscriptions/listen');
  expect(listen?.body?.['params']).toMatchObject({ notifications: { toolsListChanged: true } });
  await client.listTools();
  await client.listTools();
  expect(server.callsOf('tools/list')).toHaveLength(1);
});

test('subscribing to a resource reopens the listen stream with it in the filter', async () => {
  await using server = await startFaultServer(modernServer());
  await using client = createMcpClient(server.url);
  await client.connect();
  await client.subscribeResource('file:///watched');
  // The stream is reopened with the new filter (an earlier one still opening may never arrive).
  const withResource = () =>
    server
      .callsOf('subscriptions/listen')
      .find((call) => JSON.stringify(call.body).includes('file:///watched'));
  await waitFor(() => withResource() !== undefined);
  expect(withResource()?.body?.['params']).toMatchObject({
    notifications: { toolsListChanged: true, resourceSubscriptions: ['file:///watched'] },
  });
  expect(server.callsOf('resources/subscribe')).toHaveLength(0);
});

test('closing while a subscription changes leaves no socket or timer behind', async () => {
  await using server = await startFaultServer(modernServer(), { keepAliveMs: 60_000 });
  const baseline = handles();
  const client = createMcpClient(server.url);
  await client.connect();
  const subscribing = client.subscribeResource('file:///late').catch(() => undefined);
  await client.close();
  await subscribing;
  // Sockets close within moments; a leaked subscription would hold retry timers for seconds.
  await waitFor(() => handles() <= baseline, 1_000);
  expect(handles()).toBeLessThanOrEqual(baseline);
});

test('a listen stream that breaks is reopened, and cached lists are treated as stale', async () => {
  let opened = 0;
  let breakFirst: () => void = () => {};
  const broken = new Promise<void>((resolve) => {
    breakFirst = resolve;
  });
  await using server = await startFaultServer(
    modernServer({
      ttlMs: 60_000,
      override: (message) => {
        if (message.method !== 'subscriptions/listen') return undefined;
        opened += 1;
        if (opened > 1) return new Promise<undefined>(() => {});
        // The first stream acknowledges, then ends when the test says so; later ones stay open.
        const ack = `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': message.id }, notifications: {} } })}\n\n`;
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(new TextEncoder().encode(ack));
            await broken;
            controller.close();
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      },
    }),
  );
  await using client = createMcpClient(server.url, {
    retry: { minDelayMs: 1, maxDelayMs: 5 },
  });
  await client.listTools();
  await client.listTools();
  expect(server.callsOf('tools/list')).toHaveLength(1);
  breakFirst();
  await waitFor(() => opened >= 2);
  await client.listTools();
  // Changes may have been missed while the stream was down: the fresh-for-a-minute list is asked for again.
  expect(server.callsOf('tools/list')).toHaveLength(2);
});
