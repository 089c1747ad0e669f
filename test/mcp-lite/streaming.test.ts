/**
 * MCP-lite over SSE (seed 000 §4.3, A.4). Every call accepts `application/json,
 * text/event-stream`, so a server that streams does whether or not the caller follows the call:
 * `message` partials, `done` with the final `_meta`, `error` with the
 * server's error, `heartbeat` keeping the deadline alive.
 */
import {
  type ContentBlock,
  createMcpClient,
  JsonRpcError,
  type Progress,
  StreamTruncatedError,
  TimeoutError,
  type ToolStreamEvent,
} from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { HttpResponse, http } from 'msw';
import { expect, test } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.ts';

test('message events arrive as partials in order; done ends the call with its _meta', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
  const seen: Progress[] = [];
  const result = await client.callTool(
    'generate_report',
    { topic: 'Quarterly Report' },
    { onProgress: (progress) => seen.push(progress) },
  );
  expect(seen).toEqual([
    { progress: 1, message: 'Quarterly Report\n\nExecutive Summary' },
    { progress: 2, message: '\n\nRevenue for Q4 increased by 15%...' },
  ]);
  expect(result.content).toEqual([
    {
      type: 'text',
      text: 'Quarterly Report\n\nExecutive Summary\n\nRevenue for Q4 increased by 15%...',
    },
  ]);
  expect(result._meta).toMatchObject({ response_type: 'answer', timestamp: expect.any(String) });
  expect(server.log.at(-1)?.headers['accept']).toBe('application/json, text/event-stream');
});

test('a tool that does not stream answers in JSON, though the call takes a stream', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
  const result = await client.callTool('transfer_funds', { amount: 500 }, { onProgress: () => {} });
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toEqual([
    { reason: 'insufficient_funds', balance: 100, requested: 500 },
  ]);
  expect(server.log.at(-1)?.headers['accept']).toBe('application/json, text/event-stream');
});

test('a server that streams every answer: one done event carrying the whole result', async () => {
  await using server = await startFaultServer([
    http.post('*/listtools', () => HttpResponse.json([{ name: 'transfer', inputSchema: {} }])),
    http.post(
      '*/calltools',
      () =>
        new HttpResponse(
          'event: done\ndata: {"content":[{"reason":"insufficient_funds"}],"isError":true}\n\n',
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    ),
  ]);
  await using client = createMcpClient(server.url, { dialect: 'mcp-lite' });
  const result = await client.callTool('transfer');
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toEqual([{ reason: 'insufficient_funds' }]);
});

test('an error event fails the call with the server error, data included', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
  const seen: Progress[] = [];
  const error = await client
    .callTool('generate_report', { topic: 'Q4', fail: true }, { onProgress: (p) => seen.push(p) })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(JsonRpcError);
  expect(error).toMatchObject({
    rpcCode: -32603,
    message: expect.stringContaining('report generator crashed'),
    data: { section: 2 },
  });
  expect(seen).toHaveLength(1);
});

test('heartbeats keep the deadline alive; the same silence without them times out', async () => {
  await using server = await startReferenceServer();
  // Eight beats 100 ms apart against a 300 ms timeout: only the heartbeats can carry it through.
  const slow = { topic: 'Q4', beats: 8, beat_ms: 100 };
  await using client = createMcpClient(server.urls.mcpLite, {
    dialect: 'mcp-lite',
    timeoutMs: 300,
  });
  const result = await client.callTool('generate_report', slow, { onProgress: () => {} });
  expect(result.isError).toBe(false);
  const error = await client
    .callTool('generate_report', { ...slow, silent: true }, { onProgress: () => {} })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TimeoutError);
});

test('heartbeats keep a plain callTool alive too: nobody has to follow the call', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.mcpLite, {
    dialect: 'mcp-lite',
    timeoutMs: 300,
  });
  // No onProgress, no onPartial: the call still takes the stream, so the beats carry it through.
  const result = await client.callTool('generate_report', { topic: 'Q4', beats: 8, beat_ms: 100 });
  expect(result.isError).toBe(false);
  expect(result.content).toEqual([
    { type: 'text', text: 'Q4\n\nExecutive Summary\n\nRevenue for Q4 increased by 15%...' },
  ]);
  // maxTimeoutMs still bounds it: beats cannot keep a call alive for ever.
  const capped = await client
    .callTool('generate_report', { topic: 'Q4', beats: 8, beat_ms: 100 }, { maxTimeoutMs: 400 })
    .catch((e: unknown) => e);
  expect(capped).toBeInstanceOf(TimeoutError);
}, 10_000);

test('a stream that ends without done is a StreamTruncatedError', async () => {
  await using server = await startFaultServer([
    http.post('*/listtools', () => HttpResponse.json([{ name: 'report', inputSchema: {} }])),
    http.post(
      '*/calltools',
      () =>
        new HttpResponse('event: message\ndata: {"partial":"half"}\n\n', {
          headers: { 'content-type': 'text/event-stream' },
        }),
    ),
  ]);
  await using client = createMcpClient(server.url, { dialect: 'mcp-lite' });
  await expect(client.callTool('report', {}, { onProgress: () => {} })).rejects.toBeInstanceOf(
    StreamTruncatedError,
  );
});

test('unknown events are skipped; an error event that is not JSON-RPC keeps its text', async () => {
  await using server = await startFaultServer([
    http.post('*/listtools', () => HttpResponse.json([{ name: 'report', inputSchema: {} }])),
    http.post(
      '*/calltools',
      () =>
        new HttpResponse(
          'event: progress\ndata: 50%\n\nevent: heartbeat\ndata: {}\n\nevent: error\ndata: disk full\n\n',
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    ),
  ]);
  await using client = createMcpClient(server.url, { dialect: 'mcp-lite' });
  await expect(client.callTool('report', {}, { onProgress: () => {} })).rejects.toMatchObject({
    rpcCode: -32603,
    message: expect.stringContaining('disk full'),
  });
});

test('streamTool yields each partial as typed content, then the final result', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
  const heard: ContentBlock[][] = [];
  const events: ToolStreamEvent[] = [];
  for await (const event of client.streamTool(
    'generate_report',
    { topic: 'Q4' },
    { onPartial: (content) => heard.push(content) },
  )) {
    events.push(event);
  }
  const partials = events.filter((event) => event.type === 'partial');
  expect(partials.map((event) => event.content)).toEqual([
    [{ type: 'text', text: 'Q4\n\nExecutive Summary' }],
    [{ type: 'text', text: '\n\nRevenue for Q4 increased by 15%...' }],
  ]);
  // The caller's own callback hears the same parts.
  expect(heard).toEqual(partials.map((event) => event.content));
  const last = events.at(-1);
  expect(last?.type).toBe('result');
  expect(last?.type === 'result' && last.result.content).toEqual([
    { type: 'text', text: 'Q4\n\nExecutive Summary\n\nRevenue for Q4 increased by 15%...' },
  ]);
});

test('stopping a streamTool loop early aborts the call: nothing more is read', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
  let partials = 0;
  // Five beats 100 ms apart stand between the first part and the second.
  for await (const event of client.streamTool(
    'generate_report',
    { topic: 'Q4', beats: 5, beat_ms: 100 },
    { onPartial: () => partials++ },
  )) {
    if (event.type === 'partial') break;
  }
  await new Promise((resolve) => setTimeout(resolve, 800));
  expect(partials).toBe(1);
});

test('a streamTool call that fails ends the loop with the error', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
  const types: string[] = [];
  const error = await (async () => {
    for await (const event of client.streamTool('generate_report', { topic: 'Q4', fail: true })) {
      types.push(event.type);
    }
  })().catch((caught: unknown) => caught);
  expect(types).toEqual(['partial']);
  expect(error).toBeInstanceOf(JsonRpcError);
});
