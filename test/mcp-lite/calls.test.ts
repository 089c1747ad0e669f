/**
 * MCP-lite calls against the reference server: each `response_type` reaches the caller as the
 * Outcome it maps to, and each JSON-RPC error code of §4.4 as a JsonRpcError with its data.
 */
import {
  createMcpClient,
  InputRequiredError,
  JsonRpcError,
  MissingCapabilityError,
  MoreResourceRequiredError,
  ToolNotFoundError,
} from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.ts';

const fast = { retry: { minDelayMs: 1, maxDelayMs: 2 } };

async function liteServer() {
  const server = await startReferenceServer();
  const client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite', ...fast });
  return {
    server,
    client,
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.close();
    },
  };
}

describe('response_type', () => {
  test('answer: untyped items become text blocks plus structuredContent; _meta is kept', async () => {
    await using lite = await liteServer();
    const result = await lite.client.callTool('search_documents', { query: 'mcp', limit: 2 });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual([
      expect.objectContaining({ document_id: 'doc_123' }),
      expect.objectContaining({ document_id: 'doc_456' }),
    ]);
    expect(result.content).toHaveLength(2);
    expect(result.content.every((block) => block.type === 'text')).toBe(true);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({
      document_id: 'doc_123',
    });
    expect(result._meta).toMatchObject({
      response_type: 'answer',
      timestamp: expect.any(String),
      processing_time_ms: expect.any(Number),
      server_version: expect.any(String),
    });
    // The request was a JSON-RPC tools/call POSTed to /calltools, asking for JSON.
    const call = lite.server.log.at(-1);
    expect(call?.path).toBe('/mcp-lite/v1/calltools');
    expect(call?.headers['accept']).toBe('application/json, text/event-stream');
    expect(call?.body).toMatchObject({
      jsonrpc: '2.0',
      method: 'tools/call',
      params: { name: 'search_documents', arguments: { query: 'mcp', limit: 2 } },
    });
  });

  test('no _meta means answer', async () => {
    await using lite = await liteServer();
    const result = await lite.client.callTool('echo', { text: 'plain' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'plain' }], isError: false });
  });

  test('failure is a tool failure the caller can tell from a protocol error: returned, isError', async () => {
    await using lite = await liteServer();
    const result = await lite.client.callTool('transfer_funds', { amount: 500 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual([
      { reason: 'insufficient_funds', balance: 100, requested: 500 },
    ]);
    expect(result._meta?.['response_type']).toBe('failure');
    expect((await lite.client.callTool('transfer_funds', { amount: 5 })).isError).toBe(false);
  });

  test('promise is redeemed through the redeem tool until the answer is in', async () => {
    await using lite = await liteServer();
    const states: string[] = [];
    const result = await lite.client.callTool(
      'analyze_dataset',
      { dataset_id: 'large', polls: 2 },
      { onStatus: (status) => states.push(status.state) },
    );
    expect(result.structuredContent).toEqual([{ dataset_id: 'large', rows: 1000, outliers: 3 }]);
    const calls = lite.server.log
      .filter((entry) => entry.path.endsWith('/calltools'))
      .map((entry) => (entry.body as { params: { name: string } }).params.name);
    // The call, two redeems that still wait, and the one that gets the answer.
    expect(calls).toEqual(['analyze_dataset', 'redeem', 'redeem', 'redeem']);
    expect(states).toEqual(['pending', 'working', 'done']);
  });

  test('with autoRedeem off, a promise comes back with its token, for the model to redeem', async () => {
    await using server = await startReferenceServer();
    await using client = createMcpClient(server.urls.mcpLite, {
      dialect: 'mcp-lite',
      autoRedeem: false,
      ...fast,
    });
    const result = await client.callTool('analyze_dataset', { dataset_id: 'large' });
    const token = result.pending?.id;
    expect(result.pending).toMatchObject({ kind: 'promise', dialect: 'mcp-lite' });
    expect((result.content[0] as { text: string }).text).toContain(`redeem promise token ${token}`);
    // The redeem tool is offered to models now, and it is the server's: it gives the result.
    expect((await client.listTools({ forModel: true })).map((tool) => tool.name)).toContain(
      'redeem',
    );
    const redeemed = await client.callTool('redeem', { promise: token! });
    expect(redeemed.structuredContent).toEqual([{ dataset_id: 'large', rows: 1000, outliers: 3 }]);
  });

  test('the redeem tool stays callable but is kept from models while the client redeems', async () => {
    await using lite = await liteServer();
    const all = (await lite.client.listTools()).map((tool) => tool.name);
    const forModel = (await lite.client.listTools({ forModel: true })).map((tool) => tool.name);
    expect(all).toContain('redeem');
    expect(forModel).not.toContain('redeem');
    expect(forModel).toEqual(all.filter((name) => name !== 'redeem'));
  });

  test('elicitation is an input outcome asking elicitation/create in form mode', async () => {
    await using lite = await liteServer();
    const error = await lite.client
      .callTool('book_table', { restaurant: 'Chez Ada' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRequiredError);
    expect((error as InputRequiredError).requests).toEqual(['elicitation/create (form)']);
    // The same call with the asked-for argument is the answer an MCP-lite server understands.
    const booked = await lite.client.callTool('book_table', {
      restaurant: 'Chez Ada',
      party_size: 4,
    });
    expect(booked.content).toEqual([{ type: 'text', text: 'Booked Chez Ada for 4.' }]);
  });

  test('a redeem that asks is answered by the handler, and the same redeem carries the answer', async () => {
    // The seed lets any answer be an elicitation, a redeem's too: the reference server has no
    // such tool, so a small server plays one.
    const redeems: unknown[] = [];
    await using server = await startFaultServer([
      http.post('*/listtools', () =>
        HttpResponse.json([
          { name: 'report', inputSchema: {} },
          { name: 'redeem', inputSchema: {} },
        ]),
      ),
      http.post('*/calltools', async ({ request }) => {
        const { id, params } = (await request.json()) as {
          id: string;
          params: { name: string; arguments: Record<string, unknown> };
        };
        const result = (body: Record<string, unknown>) =>
          HttpResponse.json({ jsonrpc: '2.0', id, result: body });
        if (params.name === 'report') {
          return result({ content: [], _meta: { response_type: 'promise', promise_token: 'p1' } });
        }
        redeems.push(params.arguments);
        if (params.arguments['signer'] === undefined) {
          return result({
            content: ['Who signs the report?'],
            _meta: {
              response_type: 'elicitation',
              elicitation: {
                message: 'Who signs the report?',
                requestedSchema: { type: 'object', properties: { signer: { type: 'string' } } },
              },
            },
          });
        }
        return result({ content: [`Signed by ${String(params.arguments['signer'])}.`] });
      }),
    ]);
    const asked: string[] = [];
    const states: string[] = [];
    await using client = createMcpClient(server.url, {
      dialect: 'mcp-lite',
      ...fast,
      onElicitation: (request) => {
        asked.push(request.message);
        return { action: 'accept', content: { signer: 'Ada' } };
      },
    });
    const result = await client.callTool(
      'report',
      {},
      { onStatus: (status) => states.push(status.state) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'Signed by Ada.' }]);
    expect(asked).toEqual(['Who signs the report?']);
    // The first redeem asked; the second is the same redeem with the answer among its arguments.
    expect(redeems).toEqual([{ promise: 'p1' }, { promise: 'p1', signer: 'Ada' }]);
    expect(states).toEqual(['pending', 'input_required', 'done']);
  });

  test('request-for-more-resource is a MoreResourceRequiredError carrying the answer', async () => {
    await using lite = await liteServer();
    const error = await lite.client.callTool('render_video', { minutes: 90 }).catch((e) => e);
    expect(error).toBeInstanceOf(MoreResourceRequiredError);
    expect((error as MoreResourceRequiredError).code).toBe('MORE_RESOURCE_REQUIRED');
    expect((error as MoreResourceRequiredError).result).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('GPU quota') }],
      _meta: { response_type: 'request-for-more-resource', resource: 'gpu_minutes' },
    });
  });

  test('an unknown response_type is a MalformedMessageError', async () => {
    await using server = await startFaultServer([
      http.post('*/listtools', () => HttpResponse.json([{ name: 'odd', inputSchema: {} }])),
      http.post('*/calltools', async ({ request }) => {
        const { id } = (await request.json()) as { id: string };
        return HttpResponse.json({
          jsonrpc: '2.0',
          id,
          result: { content: [], _meta: { response_type: 'maybe-later' } },
        });
      }),
    ]);
    await using client = createMcpClient(server.url, { dialect: 'mcp-lite' });
    await expect(client.callTool('odd')).rejects.toThrow(/response_type "maybe-later"/);
  });
});

describe('JSON-RPC errors (§4.4)', () => {
  test('-32601 for an unknown tool keeps available_tools and the suggestion', async () => {
    await using lite = await liteServer();
    const error = await lite.client.callTool('search_document', { query: 'x' }).catch((e) => e);
    expect(error).toBeInstanceOf(ToolNotFoundError);
    expect((error as ToolNotFoundError).available).toContain('search_documents');
    const cause = (error as Error).cause as JsonRpcError;
    expect(cause.rpcCode).toBe(-32601);
    expect(cause.data).toMatchObject({
      requested_tool: 'search_document',
      available_tools: expect.arrayContaining(['redeem', 'search_documents']),
      suggestion: "Did you mean 'search_documents'?",
    });
  });

  test('-32602 for invalid params and -32603 for an internal error', async () => {
    await using lite = await liteServer();
    await expect(lite.client.callTool('search_documents', {})).rejects.toMatchObject({
      rpcCode: -32602,
      message: expect.stringContaining('missing required argument "query"'),
    });
    await expect(lite.client.callTool('crash')).rejects.toMatchObject({ rpcCode: -32603 });
  });

  test.each([
    [-32700, 'Parse error', 400],
    [-32600, 'Invalid request', 400],
    [-32601, 'Tool not found', 200],
    [-32602, 'Invalid params', 200],
    [-32603, 'Internal error', 500],
  ])(
    '%i "%s" (HTTP %i) reaches the caller as a JsonRpcError with its data',
    async (code, message, status) => {
      await using server = await startFaultServer([
        http.post('*/listtools', () => HttpResponse.json([{ name: 't', inputSchema: {} }])),
        http.post('*/calltools', async ({ request }) => {
          // Only an error about a request that could not be read goes without its id.
          const { id } = (await request.json()) as { id: string };
          const error = { code, message, data: { hint: 'seed §4.4' } };
          return HttpResponse.json(
            { jsonrpc: '2.0', id: status === 400 ? null : id, error },
            { status },
          );
        }),
      ]);
      await using client = createMcpClient(server.url, { dialect: 'mcp-lite', ...fast });
      const error = await client.callTool('t').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JsonRpcError);
      expect(error).toMatchObject({ rpcCode: code, data: { hint: 'seed §4.4' } });
    },
  );
});

test('MCP-lite has tools only: empty lists for the rest, MissingCapabilityError for reads', async () => {
  await using lite = await liteServer();
  expect(await lite.client.listResources()).toEqual([]);
  expect(await lite.client.listPrompts()).toEqual([]);
  await expect(lite.client.readResource('file:///x')).rejects.toMatchObject({
    name: 'MissingCapabilityError',
    capability: 'resources',
  });
  await expect(lite.client.setLoggingLevel('debug')).rejects.toBeInstanceOf(MissingCapabilityError);
  await lite.client.ping();
  // Discovery only (the ping is answered from its listing): nothing was asked for the rest.
  expect(lite.server.log.map((entry) => entry.path)).toEqual(['/mcp-lite/v1/listtools']);
});
