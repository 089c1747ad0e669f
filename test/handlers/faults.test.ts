/**
 * Servers that ask the way no real test server does on demand: an MCP-lite tool that asks twice,
 * a -32042 that names no elicitationId, an MCP-lite partial that is a bare object, and a
 * 2026-07-28 resource read that needs an answer first.
 */
import { createMcpClient, TimeoutError } from '@toolwire/client';
import { HttpResponse, http } from 'msw';
import { expect, test } from 'vitest';
import { mcpServer, startFaultServer } from '../helpers/fault-server.ts';
import { modernServer } from '../helpers/modern-server.ts';

type Rpc = { id: string; params: { arguments: Record<string, unknown> } };

test('an MCP-lite tool that asks twice gets both answers: each round builds on the one before', async () => {
  const sent: Array<Record<string, unknown>> = [];
  const ask = (id: string, field: string) =>
    HttpResponse.json({
      jsonrpc: '2.0',
      id,
      result: {
        elicitation: {
          message: `need ${field}`,
          requestedSchema: {
            type: 'object',
            properties: { [field]: { type: 'string' } },
            required: [field],
          },
        },
        _meta: { response_type: 'elicitation' },
      },
    });
  await using server = await startFaultServer([
    http.post('*/listtools', () => HttpResponse.json([{ name: 'book', inputSchema: {} }])),
    http.post('*/calltools', async ({ request }) => {
      const { id, params } = (await request.json()) as Rpc;
      sent.push(params.arguments);
      if (params.arguments['size'] === undefined) return ask(id, 'size');
      if (params.arguments['time'] === undefined) return ask(id, 'time');
      const text = `table for ${String(params.arguments['size'])} at ${String(params.arguments['time'])}`;
      return HttpResponse.json({ jsonrpc: '2.0', id, result: { content: [text] } });
    }),
  ]);
  await using client = createMcpClient(server.url, {
    dialect: 'mcp-lite',
    onElicitation: (request) => {
      const field =
        request.mode === 'form' ? Object.keys(request.requestedSchema.properties)[0] : '';
      return { action: 'accept', content: { [field ?? '']: field === 'size' ? '4' : '19:00' } };
    },
  });
  const result = await client.callTool('book', { restaurant: 'Chez Ada' });
  expect(result.content).toEqual([{ type: 'text', text: 'table for 4 at 19:00' }]);
  expect(sent).toEqual([
    { restaurant: 'Chez Ada' },
    { restaurant: 'Chez Ada', size: '4' },
    { restaurant: 'Chez Ada', size: '4', time: '19:00' },
  ]);
});

// The pauses themselves (500 ms, doubling, up to 5 s) are measured on fake timers in
// packages/client/src/call/pacing.test.ts; this is the same server over real HTTP.
test('a -32042 that names no elicitationId asks the user once and is sent again', async () => {
  let calls = 0;
  await using server = await startFaultServer(
    mcpServer((message) => {
      if (message.method !== 'tools/call') return undefined;
      calls += 1;
      return HttpResponse.json({
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: -32042,
          message: 'open the link first',
          data: { elicitations: [{ mode: 'url', message: 'go', url: 'https://example.com/x' }] },
        },
      });
    }),
  );
  let asked = 0;
  await using client = createMcpClient(server.url, {
    protocolVersion: '2025-11-25',
    listen: false,
    onElicitation: () => {
      asked += 1;
      return { action: 'accept' };
    },
  });
  await client.listTools();
  const error = await client
    .callTool('t', {}, { timeoutMs: 2_500, maxTimeoutMs: 2_500 })
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(TimeoutError);
  expect(asked).toBe(1);
  expect(calls).toBeGreaterThanOrEqual(2);
});

test('an MCP-lite partial that is a bare object is kept as a structured item', async () => {
  await using server = await startFaultServer([
    http.post('*/listtools', () => HttpResponse.json([{ name: 'stats', inputSchema: {} }])),
    http.post(
      '*/calltools',
      () =>
        new HttpResponse(
          'event: message\ndata: {"rows":3}\n\nevent: done\ndata: {"_meta":{"response_type":"answer"}}\n\n',
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    ),
  ]);
  await using client = createMcpClient(server.url, { dialect: 'mcp-lite' });
  const parts: unknown[] = [];
  const result = await client.callTool(
    'stats',
    {},
    { onPartial: (content) => parts.push(content) },
  );
  expect(parts).toEqual([[{ type: 'text', text: '{"rows":3}' }]]);
  expect(result.content).toEqual([{ type: 'text', text: '{"rows":3}' }]);
  expect(result.structuredContent).toEqual([{ rows: 3 }]);
});

test('a 2026-07-28 resource read that needed an answer is not kept: the next read asks again', async () => {
  let reads = 0;
  await using server = await startFaultServer(
    modernServer({
      override: (message) => {
        if (message.method !== 'resources/read') return undefined;
        reads += 1;
        const answered = message.params?.['inputResponses'] !== undefined;
        const result = answered
          ? { contents: [{ uri: 'x://secret', text: 'the secret' }], ttlMs: 60_000 }
          : {
              resultType: 'input_required',
              inputRequests: {
                ok: {
                  method: 'elicitation/create',
                  params: {
                    mode: 'form',
                    message: 'Show it?',
                    requestedSchema: { type: 'object', properties: {} },
                  },
                },
              },
            };
        return HttpResponse.json({ jsonrpc: '2.0', id: message.id, result });
      },
    }),
  );
  let asked = 0;
  await using client = createMcpClient(server.url, {
    listen: false,
    onElicitation: () => {
      asked += 1;
      return { action: 'accept', content: {} };
    },
  });
  expect((await client.readResource('x://secret')).contents).toEqual([
    { uri: 'x://secret', text: 'the secret' },
  ]);
  await client.readResource('x://secret');
  expect(asked).toBe(2);
  expect(reads).toBe(4);
});
