/**
 * What the server sends is untrusted: each kind of bad answer ends in a typed error that names
 * what happened and where, never a hang or an unhandled rejection.
 */
import {
  ContentTypeError,
  createMcpClient,
  HttpStatusError,
  JsonRpcError,
  MalformedMessageError,
  ResponseTooLargeError,
  StreamTruncatedError,
  TimeoutError,
  UnsupportedVersionError,
} from '@toolwire/client';
import { HttpResponse, http } from 'msw';
import { expect, test } from 'vitest';
import { mcpServer, result, sseBody, sseEvent, startFaultServer } from '../helpers/fault-server.ts';
import { modernServer } from '../helpers/modern-server.ts';

const fast = { retry: { minDelayMs: 1, maxDelayMs: 5 } };

test('malformed JSON in a response body is a MalformedMessageError with an excerpt', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call'
        ? new HttpResponse('{"jsonrpc":"2.0", "id": ', {
            headers: { 'content-type': 'application/json' },
          })
        : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  const error = await client.callTool('safe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MalformedMessageError);
  expect(error).toMatchObject({
    code: 'MALFORMED_MESSAGE',
    method: 'tools/call',
    tool: 'safe',
    url: server.url,
  });
  expect((error as MalformedMessageError).bodyExcerpt).toContain('"jsonrpc"');
});

test('an HTML page with status 200 is a ContentTypeError naming the type', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call' ? HttpResponse.html('<h1>Welcome</h1>') : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  const error = await client.callTool('safe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ContentTypeError);
  expect(error).toMatchObject({ contentType: 'text/html', bodyExcerpt: '<h1>Welcome</h1>' });
});

test('an HTML error page with status 500 is an HttpStatusError with the page excerpt', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call'
        ? HttpResponse.html('<h1>Internal oops</h1>', { status: 500 })
        : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  const error = await client.callTool('unsafe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HttpStatusError);
  expect(error).toMatchObject({
    code: 'HTTP_STATUS',
    status: 500,
    bodyExcerpt: '<h1>Internal oops</h1>',
    // The server may have run the call before it failed: a call that is not idempotent is not
    // safe to send again.
    mayHaveRun: true,
    retryable: false,
  });
});

test('a JSON-RPC error in a 400 body is a JsonRpcError carrying the code and data', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call'
        ? HttpResponse.json(
            {
              jsonrpc: '2.0',
              id: null,
              error: { code: -32602, message: 'bad arguments', data: { field: 'x' } },
            },
            { status: 400 },
          )
        : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  const error = await client.callTool('safe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(JsonRpcError);
  expect(error).toMatchObject({ rpcCode: -32602, data: { field: 'x' }, tool: 'safe' });
});

test('a response whose id we never sent is a MalformedMessageError', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call' ? result(9_999, { content: [] }) : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  const error = await client.callTool('safe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MalformedMessageError);
  expect((error as Error).message).toContain('no response with id');
});

test('a body over maxResponseBytes is a ResponseTooLargeError', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call'
        ? result(message.id, { content: [{ type: 'text', text: 'x'.repeat(10_000) }] })
        : undefined,
    ),
  );
  await using client = createMcpClient(server.url, { ...fast, maxResponseBytes: 4_096 });
  const error = await client.callTool('safe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ResponseTooLargeError);
  expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', limit: 4_096 });
});

test('an SSE event over maxEventSize is a ResponseTooLargeError', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call'
        ? sseBody([
            sseEvent({
              jsonrpc: '2.0',
              id: message.id,
              result: { content: [{ type: 'text', text: 'y'.repeat(10_000) }] },
            }),
          ])
        : undefined,
    ),
  );
  await using client = createMcpClient(server.url, { ...fast, maxEventSize: 4_096 });
  const error = await client.callTool('safe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ResponseTooLargeError);
  expect((error as Error).message).toContain('event');
});

test('an SSE stream that ends before the response, without event ids, is a StreamTruncatedError', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call'
        ? sseBody([
            sseEvent({
              jsonrpc: '2.0',
              method: 'notifications/message',
              params: { level: 'info', data: 'working' },
            }),
          ])
        : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  const error = await client.callTool('unsafe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StreamTruncatedError);
  expect(server.callsOf('tools/call')).toHaveLength(1);
});

test('an SSE stream cut mid-event, without event ids, is a StreamTruncatedError', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call'
        ? sseBody(['data: {"jsonrpc":"2.0","id":'], { breakAfter: true })
        : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  await expect(client.callTool('unsafe')).rejects.toBeInstanceOf(StreamTruncatedError);
});

test('malformed JSON inside an SSE event is a MalformedMessageError', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call' ? sseBody(['data: {not json}\n\n']) : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  await expect(client.callTool('safe')).rejects.toBeInstanceOf(MalformedMessageError);
});

test('a server that never answers fails with a TimeoutError at the deadline', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call' ? new Promise<undefined>(() => {}) : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  // Connected and listed first: the short timeout is for the call alone, however busy the machine.
  await client.listTools();
  const error = await client.callTool('safe', {}, { timeoutMs: 150 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TimeoutError);
  expect(error).toMatchObject({ code: 'TIMEOUT', method: 'tools/call', tool: 'safe' });
});

test('a server that chooses a protocol version we do not speak is an UnsupportedVersionError, and its session is deleted', async () => {
  await using server = await startFaultServer(
    mcpServer(() => undefined, { version: '2099-01-01', sessionId: 's-1' }),
  );
  await using client = createMcpClient(server.url, fast);
  const error = await client.listTools().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnsupportedVersionError);
  expect(error).toMatchObject({ offered: '2099-01-01', code: 'UNSUPPORTED_VERSION' });
  expect(server.calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
});

test('a tools/list result without a tools array is a MalformedMessageError', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/list' ? result(message.id, { tools: 'many' }) : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  await expect(client.listTools()).rejects.toThrow(/tools\/list result without a "tools" array/);
});

test('a truncated stream is sent again for an idempotent request', async () => {
  let lists = 0;
  await using server = await startFaultServer(
    mcpServer((message) => {
      if (message.method !== 'tools/list') return undefined;
      lists += 1;
      return lists === 1 ? sseBody([': nothing but a comment\n\n']) : undefined;
    }),
  );
  await using client = createMcpClient(server.url, fast);
  expect(await client.listTools()).toHaveLength(2);
  expect(lists).toBe(2);
});

test('initialize refused with a list of revisions is sent again with the best one both sides speak', async () => {
  let offered: unknown[] = [];
  await using server = await startFaultServer([
    http.post('*/mcp', async ({ request }) => {
      const message = (await request.clone().json()) as {
        id?: number;
        method?: string;
        params?: { protocolVersion?: string };
      };
      if (message.method !== 'initialize') return undefined;
      offered = [...offered, message.params?.protocolVersion];
      if (message.params?.protocolVersion === '2025-06-18') return undefined;
      return HttpResponse.json(
        {
          jsonrpc: '2.0',
          id: message.id,
          error: {
            code: -32602,
            message: 'Unsupported protocol version',
            data: { supported: ['2025-06-18'], requested: message.params?.protocolVersion },
          },
        },
        { status: 400 },
      );
    }),
    ...mcpServer(() => undefined, { version: '2025-06-18' }),
  ]);
  await using client = createMcpClient(server.url, { ...fast, protocolVersion: 'legacy' });
  await client.connect();
  expect(offered).toEqual(['2025-11-25', '2025-06-18']);
  expect(client.protocolVersion).toBe('2025-06-18');
});

test('initialize refused with a list of revisions the client does not speak is an UnsupportedVersionError', async () => {
  await using server = await startFaultServer([
    http.post('*/mcp', async ({ request }) => {
      const message = (await request.clone().json()) as { id?: number };
      return HttpResponse.json(
        {
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32022, message: 'Unsupported', data: { supported: ['2026-07-28'] } },
        },
        { status: 400 },
      );
    }),
  ]);
  await using client = createMcpClient(server.url, { ...fast, protocolVersion: 'legacy' });
  const error = await client.connect().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnsupportedVersionError);
  expect(error).toMatchObject({ offered: '2026-07-28' });
});

test('an input_required whose requests are not requests is a MalformedMessageError (found by the fuzz)', async () => {
  await using server = await startFaultServer(
    modernServer({
      override: (message) =>
        message.method === 'tools/call'
          ? HttpResponse.json({
              jsonrpc: '2.0',
              id: message.id,
              result: { resultType: 'input_required', inputRequests: { a: null } },
            })
          : undefined,
    }),
  );
  await using client = createMcpClient(server.url, {
    listen: false,
    protocolVersion: '2026-07-28',
  });
  const error = await client.callTool('echo', { text: 'x' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MalformedMessageError);
  expect((error as Error).message).toContain('input request "a" that is not a request');
});
