/**
 * MCP 2026-07-28 on the dual-era endpoints (/mcp, /mcp-json) and the modern-only one, checked
 * against the specification with plain fetch: the envelope, the mirrored headers, discover,
 * results, MRTR, request-scoped streams, cancellation and subscriptions/listen.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceServer, startReferenceServer } from './index.ts';
import { initializeParams, readExchange, rpc, TestClient } from './testing/client.ts';
import {
  base64Sentinel,
  MODERN,
  modern,
  modernFetch,
  modernHeaders,
  modernMeta,
} from './testing/modern.ts';
import { SseReader } from './testing/sse.ts';

const LEGACY = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const ELICITATION = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ dualEra: true, keepAliveMs: 50 });
});
afterAll(async () => {
  await server.close();
});

describe('MCP 2026-07-28 on the dual-era endpoint', () => {
  it('answers server/discover with versions, capabilities, identity and cache hints', async () => {
    const { http, response } = await modern(server.url, 1, 'server/discover');
    expect(http.status).toBe(200);
    expect(http.headers.get('mcp-session-id')).toBeNull();
    const result = response?.result ?? {};
    expect(result['supportedVersions']).toEqual([MODERN, ...LEGACY]);
    expect(result['capabilities']).toMatchObject({ tools: { listChanged: true }, prompts: {} });
    expect(result['_meta']).toEqual({
      'io.modelcontextprotocol/serverInfo': { name: 'toolwire-reference-server', version: '0.1.0' },
    });
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'public' });
    expect(typeof result['instructions']).toBe('string');
    expect(result['ttlMs']).toBeGreaterThan(0);
  });

  it('puts resultType on every result and cache hints on lists and reads', async () => {
    for (const [method, params] of [
      ['tools/list', {}],
      ['prompts/list', {}],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['resources/read', { uri: 'ref://static/hello' }],
    ] as const) {
      const { response } = await modern(server.url, 2, method, params);
      expect(response?.result, method).toMatchObject({
        resultType: 'complete',
        cacheScope: 'public',
      });
      expect(response?.result?.['ttlMs'], method).toBeGreaterThanOrEqual(0);
    }
    const counter = await modern(server.url, 3, 'resources/read', { uri: 'ref://counter' });
    expect(counter.response?.result?.['ttlMs']).toBe(0);
    const call = await modern(server.url, 4, 'tools/call', {
      name: 'echo',
      arguments: { text: 'hi' },
    });
    expect(call.response?.result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'hi' }],
    });
    expect(call.response?.result).not.toHaveProperty('ttlMs');
    const completion = await modern(server.url, 5, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'style', value: 'p' },
    });
    expect(completion.response?.result).toMatchObject({
      resultType: 'complete',
      completion: { values: ['pirate'] },
    });
  });

  it('refuses a missing MCP-Protocol-Version header with 400 and -32020, echoing the id', async () => {
    const { http, response } = await modern(
      server.url,
      7,
      'tools/list',
      {},
      {
        headers: { 'mcp-protocol-version': null },
      },
    );
    expect(http.status).toBe(400);
    expect(response?.error?.code).toBe(-32020);
    expect(response?.id).toBe(7);
  });

  it('refuses incomplete _meta with 400 and -32602', async () => {
    const bare = await modern(server.url, 8, 'server/discover', {}, { rawParams: true });
    expect(bare.http.status).toBe(400);
    expect(bare.response?.error?.code).toBe(-32602);
    const noCapabilities = await modern(
      server.url,
      9,
      'server/discover',
      { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } },
      { rawParams: true },
    );
    expect(noCapabilities.http.status).toBe(400);
    expect(noCapabilities.response?.error?.code).toBe(-32602);
    // clientInfo is only a SHOULD.
    const noInfo = await modern(
      server.url,
      10,
      'server/discover',
      {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
      { rawParams: true },
    );
    expect(noInfo.http.status).toBe(200);
  });

  it('refuses a header that disagrees with _meta (-32020) and an unsupported version (-32022)', async () => {
    const mismatch = await modern(
      server.url,
      11,
      'server/discover',
      {},
      {
        meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
      },
    );
    expect(mismatch.http.status).toBe(400);
    expect(mismatch.response?.error?.code).toBe(-32020);
    const unsupported = await modern(
      server.url,
      12,
      'server/discover',
      {},
      {
        meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
        headers: { 'mcp-protocol-version': '2099-01-01' },
      },
    );
    expect(unsupported.http.status).toBe(400);
    expect(unsupported.response?.error).toMatchObject({
      code: -32022,
      data: { supported: [MODERN, ...LEGACY], requested: '2099-01-01' },
    });
    expect(unsupported.response?.id).toBe(12);
  });

  it('checks Mcp-Method and Mcp-Name, decoding the base64 sentinel', async () => {
    const noMethod = await modern(
      server.url,
      13,
      'tools/list',
      {},
      { headers: { 'mcp-method': null } },
    );
    expect([noMethod.http.status, noMethod.response?.error?.code]).toEqual([400, -32020]);
    const wrongMethod = await modern(
      server.url,
      14,
      'tools/list',
      {},
      {
        headers: { 'mcp-method': 'TOOLS/LIST' },
      },
    );
    expect([wrongMethod.http.status, wrongMethod.response?.error?.code]).toEqual([400, -32020]);
    const echo = { name: 'echo', arguments: { text: 'x' } };
    const noName = await modern(server.url, 15, 'tools/call', echo, {
      headers: { 'mcp-name': null },
    });
    expect([noName.http.status, noName.response?.error?.code]).toEqual([400, -32020]);
    const wrongName = await modern(server.url, 16, 'tools/call', echo, {
      headers: { 'mcp-name': 'add' },
    });
    expect([wrongName.http.status, wrongName.response?.error?.code]).toEqual([400, -32020]);
    const encoded = await modern(server.url, 17, 'tools/call', echo, {
      headers: { 'mcp-name': base64Sentinel('echo') },
    });
    expect(encoded.response?.result?.['content']).toEqual([{ type: 'text', text: 'x' }]);
    const badBase64 = await modern(server.url, 18, 'tools/call', echo, {
      headers: { 'mcp-name': '=?base64?ZWNo*w==?=' },
    });
    expect([badBase64.http.status, badBase64.response?.error?.code]).toEqual([400, -32020]);
    const read = await modern(
      server.url,
      19,
      'resources/read',
      { uri: 'ref://static/hello' },
      {
        headers: { 'mcp-name': 'ref://static/blob' },
      },
    );
    expect(read.response?.error?.code).toBe(-32020);
  });

  it('offers regional, whose region is mirrored into Mcp-Param-Region and checked', async () => {
    const { response } = await modern(server.url, 20, 'tools/list');
    const tools = response?.result?.['tools'] as Array<Record<string, unknown>>;
    expect(tools[0]).toMatchObject({
      name: 'regional',
      inputSchema: { properties: { region: { 'x-mcp-header': 'Region' } } },
    });
    const args = { name: 'regional', arguments: { region: 'us-west1', query: 'q' } };
    const ok = await modern(server.url, 21, 'tools/call', args, {
      headers: { 'mcp-param-region': 'us-west1' },
    });
    expect(ok.response?.result?.['content']).toEqual([
      { type: 'text', text: 'region us-west1: q' },
    ]);
    const missing = await modern(server.url, 22, 'tools/call', args);
    expect([missing.http.status, missing.response?.error?.code]).toEqual([400, -32020]);
    const wrong = await modern(server.url, 23, 'tools/call', args, {
      headers: { 'mcp-param-region': 'eu-west1' },
    });
    expect([wrong.http.status, wrong.response?.error?.code]).toEqual([400, -32020]);
    const unicode = { name: 'regional', arguments: { region: 'Zürich' } };
    const encoded = await modern(server.url, 24, 'tools/call', unicode, {
      headers: { 'mcp-param-region': base64Sentinel('Zürich') },
    });
    expect(encoded.response?.result?.['content']).toEqual([
      { type: 'text', text: 'region Zürich: ' },
    ]);
  });

  it('answers unknown and removed methods with 404 and -32601', async () => {
    for (const method of [
      'nope/never',
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'initialize',
    ]) {
      const { http, response } = await modern(
        server.url,
        25,
        method,
        method === 'logging/setLevel' ? { level: 'info' } : {},
      );
      expect([http.status, response?.error?.code], method).toEqual([404, -32601]);
    }
  });

  it('reports an unknown resource as -32602 with the uri', async () => {
    const { http, response } = await modern(server.url, 26, 'resources/read', {
      uri: 'ref://nowhere',
    });
    expect(http.status).toBe(200);
    expect(response?.error).toMatchObject({ code: -32602, data: { uri: 'ref://nowhere' } });
  });

  it('needs input for ask_name: -32021 without elicitation, else input_required until retried', async () => {
    const call = { name: 'ask_name', arguments: {} };
    const refused = await modern(server.url, 27, 'tools/call', call);
    expect(refused.http.status).toBe(400);
    expect(refused.response?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    const first = await modern(server.url, 28, 'tools/call', call, { meta: ELICITATION });
    const asked = first.response?.result ?? {};
    expect(asked).toMatchObject({
      resultType: 'input_required',
      inputRequests: { name: { method: 'elicitation/create', params: { mode: 'form' } } },
    });
    expect(typeof asked['requestState']).toBe('string');
    const inputResponses = { name: { action: 'accept', content: { name: 'Ada' } } };
    const done = await modern(
      server.url,
      29,
      'tools/call',
      {
        ...call,
        inputResponses,
        requestState: asked['requestState'],
      },
      { meta: ELICITATION },
    );
    expect(done.response?.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Hello, Ada!' }],
    });
    const tampered = await modern(
      server.url,
      30,
      'tools/call',
      {
        ...call,
        inputResponses,
        requestState: `${String(asked['requestState'])}x`,
      },
      { meta: ELICITATION },
    );
    expect(tampered.response?.error?.code).toBe(-32602);
    const stateless = await modern(
      server.url,
      31,
      'tools/call',
      { ...call, inputResponses },
      { meta: ELICITATION },
    );
    expect(stateless.response?.result?.['resultType']).toBe('input_required');
  });

  it('streams progress on the request’s own SSE answer, and answers JSON on /mcp-json', async () => {
    const params = {
      name: 'progress',
      arguments: { steps: 2, delayMs: 1 },
      _meta: { progressToken: 'p' },
    };
    const body = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { ...params, _meta: { ...modernMeta(), progressToken: 'p' } },
    });
    const sse = await readExchange(
      await fetch(server.url, {
        method: 'POST',
        headers: modernHeaders('tools/call', params),
        body: JSON.stringify(body(32)),
      }),
      32,
    );
    expect(sse.http.headers.get('content-type')).toBe('text/event-stream');
    expect(sse.messages.map((message) => message.method ?? 'response')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'response',
    ]);
    const json = await readExchange(
      await fetch(server.urls.statefulJson, {
        method: 'POST',
        headers: modernHeaders('tools/call', params),
        body: JSON.stringify(body(33)),
      }),
      33,
    );
    expect(json.http.headers.get('content-type')).toBe('application/json');
    expect(json.response?.result?.['resultType']).toBe('complete');
  });

  it('sends log messages only when _meta asks for a level, and only on the request’s stream', async () => {
    const call = { name: 'log', arguments: { level: 'warning', message: 'careful' } };
    const silent = await modern(server.url, 34, 'tools/call', call);
    expect(silent.messages.filter((message) => message.method !== undefined)).toEqual([]);
    const loud = await modern(server.url, 35, 'tools/call', call, {
      meta: { 'io.modelcontextprotocol/logLevel': 'info' },
    });
    expect(loud.messages[0]).toMatchObject({
      method: 'notifications/message',
      params: { level: 'warning', data: 'careful' },
    });
    const above = await modern(server.url, 36, 'tools/call', call, {
      meta: { 'io.modelcontextprotocol/logLevel': 'error' },
    });
    expect(above.messages.filter((message) => message.method !== undefined)).toEqual([]);
  });

  it('treats the client closing the stream as cancellation, and records it', async () => {
    const abort = new AbortController();
    const pending = modernFetch(
      server.url,
      'slow-1',
      'tools/call',
      { name: 'slow', arguments: { ms: 60000 } },
      {
        signal: abort.signal,
      },
    ).catch(() => undefined);
    await sleep(100);
    abort.abort();
    await pending;
    await expect.poll(() => server.cancelled.map((entry) => entry.requestId)).toContain('slow-1');
  });

  it('ignores Mcp-Session-Id on modern requests and never mints one', async () => {
    const { http, response } = await modern(
      server.url,
      37,
      'tools/list',
      {},
      {
        headers: { 'mcp-session-id': 'not-a-session' },
      },
    );
    expect(http.status).toBe(200);
    expect(http.headers.get('mcp-session-id')).toBeNull();
    expect(response?.result?.['tools']).toBeDefined();
  });

  it('answers GET and DELETE of modern traffic with 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const http = await fetch(server.url, {
        method,
        headers: { accept: 'text/event-stream', 'mcp-protocol-version': MODERN },
      });
      expect(http.status, method).toBe(405);
      await http.body?.cancel();
    }
  });

  it('keeps the legacy era as it was: initialize opens a session without the modern-only tools', async () => {
    const client = await TestClient.connect(server.url);
    expect(client.sessionId).toBeDefined();
    const names: string[] = [];
    let cursor: unknown;
    do {
      const page = await client.result(
        'tools/list',
        cursor === undefined ? {} : { cursor: cursor as string },
      );
      names.push(...(page['tools'] as Array<{ name: string }>).map((tool) => tool.name));
      cursor = page['nextCursor'];
    } while (cursor !== undefined);
    expect(names).not.toContain('regional');
    expect(names).not.toContain('ask_name');
    expect((await client.request('ping')).response?.result).toEqual({});
  });
});

describe('without dualEra', () => {
  it('/mcp stays the legacy endpoint: a modern probe is refused the legacy way', async () => {
    await using legacy = await startReferenceServer();
    const { http, response } = await modern(legacy.url, 1, 'server/discover');
    expect(http.status).toBe(400);
    // The legacy refusal of an unknown MCP-Protocol-Version, not a modern error.
    expect(response?.error?.code).toBe(-32600);
    const onModern = await modern(legacy.urls.modern, 2, 'server/discover');
    expect(onModern.response?.result?.['supportedVersions']).toEqual([MODERN]);
  });
});

describe('subscriptions/listen', () => {
  async function listen(id: number, notifications: Record<string, unknown>) {
    const http = await modernFetch(server.url, id, 'subscriptions/listen', { notifications });
    expect(http.headers.get('content-type')).toBe('text/event-stream');
    return new SseReader(http.body);
  }

  it('acknowledges first, then delivers only the opted-in notifications, tagged', async () => {
    const reader = await listen(40, {
      toolsListChanged: true,
      resourceSubscriptions: ['ref://counter'],
    });
    const ack = JSON.parse((await reader.next())?.data ?? '{}');
    expect(ack).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: {
        _meta: { 'io.modelcontextprotocol/subscriptionId': 40 },
        notifications: { toolsListChanged: true, resourceSubscriptions: ['ref://counter'] },
      },
    });
    await modern(server.url, 41, 'tools/call', { name: 'toggle_tool', arguments: {} });
    await modern(server.url, 42, 'tools/call', { name: 'bump', arguments: {} });
    const changed = JSON.parse((await reader.next())?.data ?? '{}');
    expect(changed).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 40 } },
    });
    const updated = JSON.parse((await reader.next())?.data ?? '{}');
    expect(updated).toMatchObject({
      method: 'notifications/resources/updated',
      params: { uri: 'ref://counter', _meta: { 'io.modelcontextprotocol/subscriptionId': 40 } },
    });
    await reader.cancel();
    await modern(server.url, 43, 'tools/call', { name: 'toggle_tool', arguments: {} });
  });

  it('leaves out what the filter did not ask for', async () => {
    const reader = await listen(44, { resourceSubscriptions: ['ref://counter'] });
    await reader.next();
    await modern(server.url, 45, 'tools/call', { name: 'toggle_tool', arguments: {} });
    await modern(server.url, 46, 'tools/call', { name: 'bump', arguments: {} });
    const first = JSON.parse((await reader.next())?.data ?? '{}');
    expect(first['method']).toBe('notifications/resources/updated');
    await reader.cancel();
    await modern(server.url, 47, 'tools/call', { name: 'toggle_tool', arguments: {} });
  });

  it('sends keep-alive comments on a quiet stream', async () => {
    const http = await modernFetch(server.url, 48, 'subscriptions/listen', { notifications: {} });
    const reader = http.body?.getReader();
    let text = '';
    const decoder = new TextDecoder();
    while (!text.includes('\n:\n')) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) break;
      text += decoder.decode(chunk.value);
    }
    expect(text).toContain('\n:\n');
    await reader?.cancel();
  });

  it('ends with a graceful final result when the server closes', async () => {
    const own = await startReferenceServer({ dualEra: true });
    const http = await modernFetch(own.url, 'sub', 'subscriptions/listen', {
      notifications: { toolsListChanged: true },
    });
    const reader = new SseReader(http.body);
    await reader.next();
    await own.close();
    const { events, broken } = await reader.readAll();
    expect(broken).toBe(false);
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toEqual({
      jsonrpc: '2.0',
      id: 'sub',
      result: {
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub' },
      },
    });
  });
});

describe('the modern-only endpoint', () => {
  it('refuses initialize with 400 and -32022 naming its versions', async () => {
    const http = await fetch(server.urls.modern, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(rpc(1, 'initialize', initializeParams('2025-11-25'))),
    });
    expect(http.status).toBe(400);
    expect(await http.json()).toMatchObject({
      id: 1,
      error: { code: -32022, data: { supported: [MODERN], requested: '2025-11-25' } },
    });
  });

  it('serves 2026-07-28 and discovers only it', async () => {
    const { response } = await modern(server.urls.modern, 2, 'server/discover');
    expect(response?.result?.['supportedVersions']).toEqual([MODERN]);
    const call = await modern(server.urls.modern, 3, 'tools/call', {
      name: 'echo',
      arguments: { text: 'm' },
    });
    expect(call.response?.result?.['content']).toEqual([{ type: 'text', text: 'm' }]);
  });

  it('refuses legacy requests and answers GET and DELETE with 405', async () => {
    const http = await fetch(server.urls.modern, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(rpc(4, 'tools/list')),
    });
    expect(http.status).toBe(400);
    expect(((await http.json()) as { error: { code: number } }).error.code).toBe(-32020);
    for (const method of ['GET', 'DELETE']) {
      const refused = await fetch(server.urls.modern, { method });
      expect(refused.status).toBe(405);
      await refused.body?.cancel();
    }
  });
});
