/**
 * One dialect, two bindings: every MCP-lite fixture of the reference server gives the same
 * normalised outcome over gRPC as over HTTP. Each row runs against both and compares what the
 * caller sees (the result, or the error's class, code and payload), with what must differ
 * normalised away: times, promise tokens, URLs.
 */
import {
  type CallHandle,
  type ClientOptions,
  createMcpClient,
  isMcpError,
  type McpClient,
} from '@toolwire/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startBothBindings } from '../helpers/mcp-lite-bindings.ts';

const fast = { retry: { minDelayMs: 1, maxDelayMs: 2 } };

interface Row {
  name: string;
  options?: ClientOptions;
  /** What the caller sees; `open` makes more clients for the same URL. */
  run(client: McpClient, open: (options?: ClientOptions) => McpClient): Promise<unknown>;
  /** What the HTTP outcome must look like, so that two equal failures cannot pass. */
  shape: unknown;
}

const handle = (url: string, id: string): CallHandle => ({
  kind: 'promise',
  id,
  url,
  dialect: 'mcp-lite',
  tool: 'analyze_dataset',
  issuedAt: new Date().toISOString(),
});

const ROWS: Row[] = [
  {
    name: 'listing: names, categories, descriptions, input schemas',
    run: async (client) => ({ tools: await client.listTools(), server: client.serverCapabilities }),
    shape: {
      tools: expect.arrayContaining([
        expect.objectContaining({ name: 'redeem', category: 'system', '@type': 'system' }),
      ]),
      server: { promises: { redeem: 'redeem' } },
    },
  },
  {
    name: 'listing for models leaves redeem out',
    run: async (client) => ({
      names: (await client.listTools({ forModel: true })).map((tool) => tool.name),
    }),
    shape: {
      names: expect.arrayContaining(['search_documents']) && expect.not.arrayContaining(['redeem']),
    },
  },
  {
    name: 'answer with untyped items: text blocks and structuredContent, _meta kept',
    run: (client) => client.callTool('search_documents', { query: 'mcp', limit: 2 }),
    shape: {
      isError: false,
      structuredContent: [{ document_id: 'doc_123' }, { document_id: 'doc_456' }],
      _meta: { response_type: 'answer', server_version: expect.any(String) },
    },
  },
  {
    name: 'answer without _meta',
    run: (client) => client.callTool('echo', { text: 'plain' }),
    shape: { content: [{ type: 'text', text: 'plain' }], isError: false },
  },
  {
    name: 'failure: a tool failure returned with isError',
    run: (client) => client.callTool('transfer_funds', { amount: 500 }),
    shape: { isError: true, _meta: { response_type: 'failure' } },
  },
  {
    name: 'answer of the same tool within its limit',
    run: (client) => client.callTool('transfer_funds', { amount: 5 }),
    shape: { isError: false, content: [{ text: 'Transferred 5.' }] },
  },
  {
    name: 'promise redeemed automatically, status reported',
    run: async (client) => {
      const states: string[] = [];
      const result = await client.callTool(
        'analyze_dataset',
        { dataset_id: 'large', polls: 2 },
        { onStatus: (status) => states.push(status.state) },
      );
      return { result, states };
    },
    shape: {
      result: { structuredContent: [{ dataset_id: 'large', rows: 1000 }] },
      states: ['pending', 'working', 'done'],
    },
  },
  {
    name: 'promise handed back with autoRedeem off',
    options: { autoRedeem: false },
    run: (client) => client.callTool('analyze_dataset', { dataset_id: 'd' }),
    shape: { pending: { kind: 'promise', dialect: 'mcp-lite', tool: 'analyze_dataset' } },
  },
  {
    name: 'promise redeemed by another client from the stored handle',
    options: { autoRedeem: false },
    run: async (client, open) => {
      const deferred = await client.callTool('long_analysis', { ms: 50, text: 'later' });
      await client.close();
      await using other = open();
      return await other.redeem(deferred.pending!);
    },
    shape: { content: [{ type: 'text', text: 'analysis: later' }] },
  },
  {
    name: 'an expired promise token: HandleExpiredError with the handle',
    run: async (client) => {
      const error = await client
        .callTool('long_analysis', { ms: 400, ttlMs: 100 })
        .catch((caught: unknown) => caught);
      return { error: normalise(error), handle: normalise((error as { handle?: unknown }).handle) };
    },
    shape: {
      error: { name: 'HandleExpiredError' },
      handle: { kind: 'promise', tool: 'long_analysis' },
    },
  },
  {
    name: 'a token never issued: HandleExpiredError',
    run: (client) => client.redeem(handle(client.url, 'prom_never_issued')),
    shape: { error: { name: 'HandleExpiredError', code: 'HANDLE_EXPIRED' } },
  },
  {
    name: 'elicitation answered by onElicitation, the answer sent as arguments',
    options: {
      onElicitation: async (request) => {
        asked.push(request);
        return { action: 'accept', content: { party_size: 4 } };
      },
    },
    run: async (client) => {
      asked.length = 0;
      const result = await client.callTool('book_table', { restaurant: 'Chez Ada' });
      return { result, asked: [...asked] };
    },
    shape: {
      result: { content: [{ text: 'Booked Chez Ada for 4.' }] },
      asked: [{ mode: 'form', message: 'How many people is the table for?' }],
    },
  },
  {
    name: 'elicitation declined: a tool failure, nothing sent again',
    options: { onElicitation: async () => ({ action: 'decline' }) },
    run: (client) => client.callTool('book_table', { restaurant: 'Chez Ada' }),
    shape: { isError: true },
  },
  {
    name: 'elicitation with no handler: InputRequiredError',
    run: (client) => client.callTool('book_table', { restaurant: 'Chez Ada' }),
    shape: { error: { name: 'InputRequiredError', requests: ['elicitation/create (form)'] } },
  },
  {
    name: 'request-for-more-resource: MoreResourceRequiredError with the answer',
    run: (client) => client.callTool('render_video', { minutes: 90 }),
    shape: {
      error: {
        name: 'MoreResourceRequiredError',
        result: { _meta: { resource: 'gpu_minutes', needed: 30 } },
      },
    },
  },
  {
    name: 'a streaming tool asked for one answer',
    run: (client) => client.callTool('generate_report', { topic: 'Q4' }),
    shape: { content: [{ type: 'text', text: expect.stringContaining('Revenue for Q4') }] },
  },
  {
    name: 'partials in order through onPartial, then the whole',
    run: async (client) => {
      const parts: unknown[] = [];
      const result = await client.callTool(
        'generate_report',
        { topic: 'Q4' },
        { onPartial: (content) => parts.push(content) },
      );
      return { parts, result };
    },
    shape: {
      parts: [
        [{ type: 'text', text: 'Q4\n\nExecutive Summary' }],
        [{ type: 'text', text: '\n\nRevenue for Q4 increased by 15%...' }],
      ],
      result: { isError: false },
    },
  },
  {
    name: 'streamTool: partials, then the result',
    run: async (client) => {
      const events: unknown[] = [];
      for await (const event of client.streamTool('generate_report', { topic: 'Q4', beats: 2 })) {
        events.push(event);
      }
      return events;
    },
    shape: [{ type: 'partial' }, { type: 'partial' }, { type: 'result' }],
  },
  {
    name: 'partials as progress, heartbeats in between',
    run: async (client) => {
      const progress: unknown[] = [];
      await client.callTool(
        'generate_report',
        { topic: 'Q4', beats: 3, beat_ms: 5 },
        { onProgress: (report) => progress.push(report) },
      );
      return progress;
    },
    shape: [{ progress: 1 }, { progress: 2 }],
  },
  {
    name: 'a stream that fails after a partial: JsonRpcError with data',
    run: async (client) => {
      const parts: unknown[] = [];
      const error = await client
        .callTool(
          'generate_report',
          { topic: 'Q4', fail: true },
          { onPartial: (content) => parts.push(content) },
        )
        .catch((caught: unknown) => caught);
      return { error: normalise(error), parts };
    },
    shape: {
      error: { name: 'JsonRpcError', rpcCode: -32603, data: { section: 2 } },
      parts: [[{ type: 'text' }]],
    },
  },
  {
    name: 'the same failure without streaming',
    run: (client) => client.callTool('generate_report', { topic: 'Q4', fail: true }),
    shape: { error: { name: 'JsonRpcError', rpcCode: -32603, data: { section: 2 } } },
  },
  {
    name: 'a tool that crashes: JsonRpcError -32603',
    run: (client) => client.callTool('crash'),
    shape: { error: { name: 'JsonRpcError', rpcCode: -32603 } },
  },
  {
    name: 'an unknown tool: ToolNotFoundError listing the tools',
    run: (client) => client.callTool('nonexistent_tool'),
    shape: {
      error: {
        name: 'ToolNotFoundError',
        available: expect.arrayContaining(['search_documents']),
        cause: { rpcCode: -32601, data: { requested_tool: 'nonexistent_tool' } },
      },
    },
  },
  {
    name: 'invalid arguments: JsonRpcError -32602',
    run: (client) => client.callTool('search_documents', {}),
    shape: { error: { name: 'JsonRpcError', rpcCode: -32602 } },
  },
  {
    name: 'the redeem tool called by hand with a bad token: JsonRpcError -32602',
    run: (client) => client.callTool('redeem', { promise: 'prom_bogus' }),
    shape: { error: { name: 'JsonRpcError', rpcCode: -32602 } },
  },
  {
    name: 'ping, empty resources and prompts, a read MissingCapabilityError',
    run: async (client) => ({
      ping: await client.ping(),
      resources: await client.listResources(),
      prompts: await client.listPrompts(),
      read: normalise(await client.readResource('file:///x').catch((caught: unknown) => caught)),
      dialect: client.dialect,
      protocolVersion: client.protocolVersion,
    }),
    shape: {
      resources: [],
      prompts: [],
      read: { name: 'MissingCapabilityError', side: 'server', capability: 'resources' },
      dialect: 'mcp-lite',
      protocolVersion: '0.042',
    },
  },
];

/** What the handler was asked, in the elicitation row. */
const asked: unknown[] = [];

/** A result or an error as the caller sees it, with times, tokens and URLs made comparable. */
function normalise(value: unknown): unknown {
  if (isMcpError(value)) {
    const error = value as unknown as Record<string, unknown>;
    const shown: Record<string, unknown> = { name: value.name, code: value.code };
    for (const key of [
      'retryable',
      'rpcCode',
      'data',
      'available',
      'requests',
      'result',
      'side',
      'capability',
    ]) {
      if (error[key] !== undefined) shown[key] = normalise(error[key]);
    }
    if (isMcpError(value.cause)) shown['cause'] = normalise(value.cause);
    return shown;
  }
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (value === undefined) return undefined;
  return JSON.parse(
    JSON.stringify(value)
      .replaceAll(/prom_[0-9a-f]+/g, '<token>')
      .replaceAll(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, '<time>')
      .replaceAll(/(https?|grpcs?):\/\/127\.0\.0\.1:\d+[^"]*/g, '<url>'),
  );
}

async function outcome(row: Row, url: string): Promise<unknown> {
  const open = (options: ClientOptions = {}) =>
    createMcpClient(url, { dialect: 'mcp-lite', ...fast, ...row.options, ...options });
  await using client = open();
  try {
    return normalise(await row.run(client, (options) => open({ autoRedeem: true, ...options })));
  } catch (error) {
    return { error: normalise(error) };
  }
}

describe('MCP-lite over gRPC and over HTTP: the same outcome', () => {
  let bindings: Awaited<ReturnType<typeof startBothBindings>>;
  beforeAll(async () => {
    bindings = await startBothBindings();
  });
  afterAll(() => bindings[Symbol.asyncDispose]());

  test.each(ROWS)('$name', async (row) => {
    const overHttp = await outcome(row, bindings.urls.http);
    const overGrpc = await outcome(row, bindings.urls.grpc);
    expect(overHttp).toMatchObject(row.shape as object);
    expect(overGrpc).toEqual(overHttp);
  });
});
