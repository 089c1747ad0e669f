/**
 * MiniMCP's HTTP transports (seed 003), with a fixture that behaves as its source does: JSON only
 * and sessionless, or JSON that turns into SSE only when a handler has notifications to send.
 * The client speaks to both without a warning and without a request the exchange did not need.
 */
import { createMcpClient, memoryVerdictStore } from '@toolwire/client';
import { describe, expect, test } from 'vitest';
import { startMiniMcpServer } from '../helpers/minimcp-server.ts';

/** What the client sent: HTTP method, JSON-RPC method, and the status it got. */
function traffic(
  requests: { httpMethod: string; body: Record<string, unknown> | undefined; status: number }[],
) {
  return requests.map((r) =>
    `${r.httpMethod} ${String(r.body?.['method'] ?? (r.body ? 'response' : ''))} ${r.status}`.trim(),
  );
}

describe.each(['http', 'smart'] as const)('MiniMCP %s transport', (mode) => {
  test('negotiates from its refusal of the probe, calls tools, and sends nothing more', async () => {
    await using server = await startMiniMcpServer(mode);
    const verdicts = memoryVerdictStore();
    const warnings: Error[] = [];
    const client = createMcpClient(server.url, { verdicts });
    client.on('warning', (error) => warnings.push(error));
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['add', 'countdown']);
    expect(client.protocolVersion).toBe('2025-06-18');
    expect(await client.callTool('add', { a: 2, b: 40 })).toMatchObject({
      content: [{ type: 'text', text: '42' }],
      isError: false,
    });
    await client.close();
    expect(traffic(server.requests)).toEqual([
      // The modern probe, refused with a JSON-RPC error without an id; its text names the revisions.
      'POST server/discover 400',
      'POST initialize 200',
      'POST notifications/initialized 202',
      'POST tools/list 200',
      'POST tools/call 200',
    ]);
    expect(warnings).toEqual([]);
    // Every request after initialize names the revision: MiniMCP would assume 2025-03-26 without it.
    for (const request of server.requests.slice(2)) {
      expect(request.headers['mcp-protocol-version']).toBe('2025-06-18');
    }
    // A second client for the same URL reuses the verdict: no probe.
    server.requests.length = 0;
    await using again = createMcpClient(server.url, { verdicts });
    await again.connect();
    expect(traffic(server.requests)).toEqual([
      'POST initialize 200',
      'POST notifications/initialized 202',
    ]);
  });

  test('a refusal whose JSON-RPC error has no id is read as the server wrote it', async () => {
    await using server = await startMiniMcpServer(mode);
    // Pinned to 2026-07-28, which MiniMCP does not speak: it refuses every request with a 400.
    await using client = createMcpClient(server.url, { protocolVersion: '2026-07-28' });
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'JSON_RPC', rpcCode: -32600 });
    expect((error as Error).message).toContain('Unsupported protocol version: 2026-07-28');
  });

  test('an unknown method is a JsonRpcError, though the server sends it with HTTP 404', async () => {
    await using server = await startMiniMcpServer(mode);
    await using client = createMcpClient(server.url);
    await expect(client.listPrompts()).rejects.toMatchObject({ code: 'JSON_RPC', rpcCode: -32601 });
  });
});

test('MiniMCP smart transport: progress and a log message arrive on the stream it opens for them', async () => {
  await using server = await startMiniMcpServer('smart');
  const warnings: Error[] = [];
  const logs: unknown[] = [];
  await using client = createMcpClient(server.url);
  client.on('warning', (error) => warnings.push(error));
  client.on('log', ({ data }) => logs.push(data));
  const progress: number[] = [];
  const result = await client.callTool(
    'countdown',
    { n: 3 },
    { onProgress: ({ progress: step }) => progress.push(step) },
  );
  expect(result.content).toEqual([{ type: 'text', text: 'liftoff' }]);
  expect(progress).toEqual([1, 2, 3]);
  expect(logs).toEqual(['counted down from 3']);
  expect(server.requests.at(-1)?.headers['accept']).toContain('text/event-stream');
  expect(warnings).toEqual([]);
});
