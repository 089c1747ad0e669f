/** The MCP-lite endpoint, checked against seed 000 (§3–4 and Appendix A) with plain fetch. */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../index.ts';
import { SseReader } from '../testing/sse.ts';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => {
  await server.close();
});

function post(name: string, body: unknown, accept = 'application/json'): Promise<Response> {
  return fetch(`${server.urls.mcpLite}/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

interface Answer {
  id?: unknown;
  result: { _meta?: Record<string, unknown>; [key: string]: unknown };
  error: { code: number; data?: unknown };
}

let nextId = 0;
async function call(name: string, args: Record<string, unknown> = {}): Promise<Answer> {
  const id = `call-${nextId++}`;
  const response = await post('calltools', {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  const body = (await response.json()) as Answer;
  expect(body.id).toBe(id);
  return body;
}

describe('discovery', () => {
  it('/listtools answers a bare array and /tools the { tools } object, redeem included', async () => {
    const bare = (await (await post('listtools', {})).json()) as Record<string, unknown>[];
    const wrapped = (await (await post('tools', {})).json()) as { tools: unknown[] };
    expect(wrapped.tools).toEqual(bare);
    expect(bare.find((tool) => tool['name'] === 'redeem')).toMatchObject({
      '@type': 'system',
      inputSchema: { required: ['promise'] },
    });
    expect(bare.every((tool) => typeof tool['@type'] === 'string')).toBe(true);
  });

  it('is POST only', async () => {
    const response = await fetch(`${server.urls.mcpLite}/listtools`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect((await fetch(server.urls.mcpLite, { method: 'POST' })).status).toBe(404);
  });
});

describe('calls', () => {
  it('answers every response_type', async () => {
    expect((await call('search_documents', { query: 'q', limit: 1 })).result).toMatchObject({
      content: [{ document_id: 'doc_123' }],
      _meta: { response_type: 'answer', timestamp: expect.any(String) },
    });
    expect((await call('echo', { text: 'x' })).result._meta).toBeUndefined();
    expect((await call('transfer_funds', { amount: 101 })).result._meta).toMatchObject({
      response_type: 'failure',
    });
    expect((await call('book_table', { restaurant: 'R' })).result._meta).toMatchObject({
      response_type: 'elicitation',
    });
    expect((await call('render_video')).result._meta).toMatchObject({
      response_type: 'request-for-more-resource',
    });
  });

  it('hands out promises that redeem into another promise, then the result, then nothing', async () => {
    const promise = (await call('analyze_dataset', { dataset_id: 'd', polls: 1 })).result;
    const token = promise._meta?.['promise_token'] as string;
    expect(promise._meta).toMatchObject({
      response_type: 'promise',
      estimated_completion: expect.any(String),
    });
    expect(token).toMatch(/^prom_[0-9a-f]{32}$/);
    expect((await call('redeem', { promise: token })).result._meta).toMatchObject({
      response_type: 'promise',
      promise_token: token,
    });
    expect((await call('redeem', { promise: token })).result).toMatchObject({
      content: [{ dataset_id: 'd' }],
    });
    expect((await call('redeem', { promise: token })).error.code).toBe(-32602);
  });

  it('hands out promises due after a time, announces when, and forgets them after their TTL', async () => {
    const before = Date.now();
    const promise = (await call('long_analysis', { ms: 150, text: 'q4' })).result;
    const token = promise._meta?.['promise_token'] as string;
    const due = Date.parse(String(promise._meta?.['estimated_completion']));
    expect(due).toBeGreaterThanOrEqual(before + 150);
    const early = (await call('redeem', { promise: token })).result._meta;
    expect(early).toMatchObject({ response_type: 'promise', promise_token: token });
    expect(Date.parse(String(early?.['estimated_completion']))).toBe(due);
    await sleep(Math.max(0, due - Date.now()) + 10);
    expect((await call('redeem', { promise: token })).result).toMatchObject({
      content: [{ type: 'text', text: 'analysis: q4' }],
      _meta: { response_type: 'answer' },
    });
    const short = (await call('long_analysis', { ms: 1_000, ttlMs: 20 })).result;
    await sleep(40);
    const expired = await call('redeem', { promise: short._meta?.['promise_token'] });
    expect(expired.error.code).toBe(-32602);
    // Every redeem is on record with the completion that had been announced for its token.
    expect(server.liteRedeems.slice(-3).map((redeem) => redeem.due)).toEqual([
      due,
      due,
      expect.any(Number),
    ]);
  });

  it('uses the JSON-RPC codes of §4.4', async () => {
    const parse = await post('calltools', '{"jsonrpc":');
    expect(parse.status).toBe(400);
    expect(((await parse.json()) as Answer).error.code).toBe(-32700);
    const invalid = await post('rpc', { jsonrpc: '1.0', id: 1 });
    expect(((await invalid.json()) as Answer).error.code).toBe(-32600);
    expect((await call('nonexistent_tool')).error).toMatchObject({
      code: -32601,
      data: { requested_tool: 'nonexistent_tool', available_tools: expect.any(Array) },
    });
    expect((await call('search_documents', { query: 5 })).error.code).toBe(-32602);
    expect((await call('crash')).error.code).toBe(-32603);
  });

  it('streams named events when asked for text/event-stream', async () => {
    const response = await post(
      'calltools',
      {
        jsonrpc: '2.0',
        id: 's',
        method: 'tools/call',
        params: { name: 'generate_report', arguments: { topic: 'T', beats: 1 } },
      },
      'text/event-stream',
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const { events } = await new SseReader(response.body).readAll();
    expect(events.map((event) => event.event)).toEqual(['message', 'heartbeat', 'message', 'done']);
    expect(JSON.parse(events[3]?.data ?? '{}')).toMatchObject({
      _meta: { response_type: 'answer' },
    });
  });

  it('ends a failing stream with an error event', async () => {
    const response = await post(
      'rpc',
      {
        jsonrpc: '2.0',
        id: 'e',
        method: 'tools/call',
        params: { name: 'generate_report', arguments: { topic: 'T', fail: true, beats: 0 } },
      },
      'text/event-stream',
    );
    const { events } = await new SseReader(response.body).readAll();
    expect(events.map((event) => event.event)).toEqual(['message', 'error']);
    expect(JSON.parse(events[1]?.data ?? '{}')).toMatchObject({ code: -32603 });
  });
});
