import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from './index.ts';
import { initializeParams, readExchange, rpc, TestClient } from './testing/client.ts';

/** A raw POST with full control over the headers. */
function rawPost(url: string, headers: Record<string, string>, body: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body });
}

/** node:http, because fetch does not let a caller choose the Host header. */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: { host, 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(JSON.stringify(rpc(1, 'ping')));
  });
}

describe('Streamable HTTP transport', () => {
  it('/mcp answers a request with an SSE stream that starts with a priming event in 2025-11-25', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { http, events, response, broken } = await client.request('ping');
    expect(http.headers.get('content-type')).toBe('text/event-stream');
    expect(broken).toBe(false);
    expect(events[0]).toMatchObject({ id: expect.any(String), data: '' });
    expect(events).toHaveLength(2);
    expect(response).toEqual({ jsonrpc: '2.0', id: expect.any(Number), result: {} });
  });

  it('older revisions get no priming event, and every event id is unique within the session', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { version: '2025-06-18' });
    const first = await client.request('tools/call', {
      name: 'progress',
      arguments: { steps: 2, delayMs: 0 },
      _meta: { progressToken: 'p' },
    });
    const second = await client.request('ping');
    expect(first.events.every((event) => event.data !== '')).toBe(true);
    const ids = [...first.events, ...second.events].map((event) => event.id);
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('/mcp-json answers a request with one JSON object', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.urls.statefulJson);
    const { http, response } = await client.request('ping');
    expect(http.headers.get('content-type')).toBe('application/json');
    expect(response).toMatchObject({ jsonrpc: '2.0', result: {} });
  });

  it('/mcp-json accepts an Accept header that lists only application/json', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.urls.statefulJson);
    const { http } = await client.request('ping', undefined, {
      headers: { accept: 'application/json' },
    });
    expect(http.status).toBe(200);
  });

  it('notifications and client responses are acknowledged with 202 and no body', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const notification = await client.notify('notifications/roots/list_changed');
    expect(notification.status).toBe(202);
    expect(await notification.text()).toBe('');
    const response = await client.post({ jsonrpc: '2.0', id: 'nobody-asked', result: {} });
    expect(response.status).toBe(202);
  });

  it('a POST whose Content-Type is not application/json gets 415', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const http = await client.post(rpc(1, 'ping'), { 'content-type': 'text/plain' });
    expect(http.status).toBe(415);
  });

  it('a POST to /mcp whose Accept does not list both JSON and SSE gets 406', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    expect((await client.post(rpc(1, 'ping'), { accept: 'application/json' })).status).toBe(406);
    expect((await client.post(rpc(2, 'ping'), { accept: 'text/event-stream' })).status).toBe(406);
  });

  it('malformed JSON gets 400 with a -32700 parse error', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const http = await rawPost(server.url, client.headers(), '{"jsonrpc": "2.0", ');
    expect(http.status).toBe(400);
    expect(await http.json()).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it('a body that is JSON but not JSON-RPC gets 400 with -32600', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const http = await client.post({ hello: 'world' });
    expect(http.status).toBe(400);
    expect(await http.json()).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('an unknown method gets -32601', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { response } = await client.request('no/such/method');
    expect(response?.error?.code).toBe(-32601);
  });

  it('a batch is answered when the session negotiated 2025-03-26', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.urls.statefulJson, { version: '2025-03-26' });
    const http = await client.post([
      rpc('a', 'ping'),
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      rpc('b', 'tools/call', { name: 'echo', arguments: { text: 'batched' } }),
    ]);
    expect(http.status).toBe(200);
    const body = await http.json();
    expect(body).toEqual([
      { jsonrpc: '2.0', id: 'a', result: {} },
      { jsonrpc: '2.0', id: 'b', result: { content: [{ type: 'text', text: 'batched' }] } },
    ]);
  });

  it('a batch on /mcp in 2025-03-26 yields one SSE event per response', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { version: '2025-03-26' });
    const http = await client.post([rpc('a', 'ping'), rpc('b', 'ping')]);
    const { messages } = await readExchange(http, 'a');
    expect(messages.map((message) => message.id).sort()).toEqual(['a', 'b']);
  });

  it('a batch is refused with 400 in revisions after 2025-03-26', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { version: '2025-06-18' });
    const http = await client.post([rpc('a', 'ping'), rpc('b', 'ping')]);
    expect(http.status).toBe(400);
    expect(await http.json()).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('initialize inside a batch is refused with 400', async () => {
    await using server = await startReferenceServer();
    const http = await rawPost(
      server.urls.stateless,
      { 'content-type': 'application/json', accept: 'application/json' },
      JSON.stringify([rpc(1, 'initialize', initializeParams('2025-03-26'))]),
    );
    expect(http.status).toBe(400);
  });

  it('a foreign Origin is refused with 403 (DNS rebinding protection)', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const http = await client.post(rpc(1, 'ping'), { origin: 'http://evil.example' });
    expect(http.status).toBe(403);
  });

  it('loopback Origins on the bound port and allowedOrigins are accepted', async () => {
    await using server = await startReferenceServer({ allowedOrigins: ['https://app.example'] });
    const client = await TestClient.connect(server.url);
    const port = new URL(server.url).port;
    for (const origin of [
      `http://localhost:${port}`,
      `http://127.0.0.1:${port}`,
      'https://app.example',
    ]) {
      const { http } = await client.request('ping', undefined, { headers: { origin } });
      expect(http.status, origin).toBe(200);
    }
    const otherPort = await client.post(rpc(1, 'ping'), { origin: 'http://localhost:1' });
    expect(otherPort.status).toBe(403);
  });

  it('a Host header that is not loopback is refused with 403', async () => {
    await using server = await startReferenceServer();
    const port = new URL(server.url).port;
    expect(await statusWithHost(server.url, 'evil.example')).toBe(403);
    expect(await statusWithHost(server.url, `evil.example:${port}`)).toBe(403);
    expect(await statusWithHost(server.urls.stateless, `localhost:${port}`)).not.toBe(403);
  });

  it('unknown paths get 404 and unsupported methods get 405', async () => {
    await using server = await startReferenceServer();
    expect((await fetch(new URL('/elsewhere', server.url))).status).toBe(404);
    const put = await fetch(server.url, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
  });

  it('GET with an Accept that does not list text/event-stream gets 406', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const headers = client.headers({ accept: 'application/json' });
    expect((await fetch(server.url, { headers })).status).toBe(406);
  });

  it('the log records every HTTP request with method, path, lower-cased headers, body and session id', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    await client.request('ping', undefined, { id: 'logged' });
    await fetch(new URL('/elsewhere', server.url));
    expect(server.log.map((entry) => [entry.httpMethod, entry.path])).toEqual([
      ['POST', '/mcp'],
      ['POST', '/mcp'],
      ['POST', '/mcp'],
      ['GET', '/elsewhere'],
    ]);
    const ping = server.log[2];
    expect(ping?.body).toEqual(rpc('logged', 'ping'));
    expect(ping?.sessionId).toBe(client.sessionId);
    expect(ping?.headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(server.log[0]?.sessionId).toBeUndefined();
  });
});

describe('stateless endpoint', () => {
  const headers = { 'content-type': 'application/json', accept: 'application/json' };

  it('answers requests without a prior initialize, in JSON, without Mcp-Session-Id', async () => {
    await using server = await startReferenceServer();
    const http = await rawPost(
      server.urls.stateless,
      headers,
      JSON.stringify(rpc(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } })),
    );
    expect(http.status).toBe(200);
    expect(http.headers.get('content-type')).toBe('application/json');
    expect(http.headers.get('mcp-session-id')).toBeNull();
    expect(await http.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'hi' }] },
    });
  });

  it('still answers initialize, without creating a session', async () => {
    await using server = await startReferenceServer();
    const http = await rawPost(
      server.urls.stateless,
      { ...headers, accept: 'application/json, text/event-stream' },
      JSON.stringify(rpc(1, 'initialize', initializeParams('2025-06-18'))),
    );
    expect(http.headers.get('content-type')).toBe('application/json');
    expect(http.headers.get('mcp-session-id')).toBeNull();
    expect(await http.json()).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
  });

  it('refuses GET and DELETE with 405', async () => {
    await using server = await startReferenceServer();
    const get = await fetch(server.urls.stateless, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(server.urls.stateless, { method: 'DELETE' })).status).toBe(405);
  });

  it('still rejects an unsupported MCP-Protocol-Version header', async () => {
    await using server = await startReferenceServer();
    const http = await rawPost(
      server.urls.stateless,
      { ...headers, 'mcp-protocol-version': 'banana' },
      JSON.stringify(rpc(1, 'ping')),
    );
    expect(http.status).toBe(400);
  });

  it('accepts batches when no version header says otherwise (2025-03-26 is assumed)', async () => {
    await using server = await startReferenceServer();
    const http = await rawPost(
      server.urls.stateless,
      headers,
      JSON.stringify([rpc(1, 'ping'), rpc(2, 'ping')]),
    );
    expect(await http.json()).toHaveLength(2);
  });
});

describe('faults', () => {
  it('failNext answers with the status, body and Retry-After without processing the request', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    server.faults.failNext(2, { status: 503, retryAfter: '1', body: 'busy' });
    for (let attempt = 0; attempt < 2; attempt++) {
      const http = await client.post(rpc(attempt, 'tools/call', { name: 'count', arguments: {} }));
      expect(http.status).toBe(503);
      expect(http.headers.get('retry-after')).toBe('1');
      expect(await http.text()).toBe('busy');
    }
    const result = await client.callTool('count');
    expect(result.content).toEqual([{ type: 'text', text: '1' }]);
  });

  it('failNext with a method fails only POSTs carrying that method', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    server.faults.failNext(1, { status: 429, body: '{"error":"slow down"}', method: 'tools/call' });
    expect((await client.request('ping')).http.status).toBe(200);
    const failed = await client.post(rpc(9, 'tools/call', { name: 'count', arguments: {} }));
    expect(failed.status).toBe(429);
    expect(failed.headers.get('content-type')).toBe('application/json');
    expect(await failed.json()).toEqual({ error: 'slow down' });
    expect((await client.callTool('count')).content).toEqual([{ type: 'text', text: '1' }]);
  });

  it('reset clears pending failures', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    server.faults.failNext(5, { status: 500 });
    server.faults.reset();
    expect((await client.request('ping')).http.status).toBe(200);
  });

  it('a delayed server still answers correctly', async () => {
    await using server = await startReferenceServer();
    server.faults.delay(20);
    const client = await TestClient.connect(server.url);
    expect(await client.result('ping')).toEqual({});
    server.faults.delay(0);
    expect(await client.result('ping')).toEqual({});
  });
});
