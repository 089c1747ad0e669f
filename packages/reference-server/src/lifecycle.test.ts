import { describe, expect, it } from 'vitest';
import { startReferenceServer } from './index.ts';
import { initializeParams, rpc, TestClient } from './testing/client.ts';

describe('lifecycle', () => {
  it('initialize creates a session: the answer carries Mcp-Session-Id, capabilities, serverInfo and instructions', async () => {
    await using server = await startReferenceServer();
    const client = new TestClient(server.url);
    const { http, response } = await client.request('initialize', initializeParams('2025-11-25'));
    expect(http.status).toBe(200);
    expect(http.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(response?.result).toMatchObject({
      protocolVersion: '2025-11-25',
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
      serverInfo: { name: 'toolwire-reference-server', version: expect.any(String) },
      instructions: expect.any(String),
    });
  });

  it('notifications/initialized is accepted with 202 and an empty body', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { skipInitialized: true });
    const ack = await client.notify('notifications/initialized');
    expect(ack.status).toBe(202);
    expect(await ack.text()).toBe('');
  });

  it.each(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'])(
    'a supported protocol version (%s) is echoed back',
    async (version) => {
      await using server = await startReferenceServer();
      const client = await TestClient.connect(server.url, { version });
      expect(client.version).toBe(version);
      expect(await client.result('ping')).toEqual({});
    },
  );

  it('an unsupported protocol version is answered with the newest supported one', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { version: '1999-01-01' });
    expect(client.version).toBe('2025-11-25');
  });

  it('the versions option limits what is negotiated and which version headers are accepted', async () => {
    await using server = await startReferenceServer({ versions: ['2025-06-18', '2025-03-26'] });
    const client = await TestClient.connect(server.url, { version: '2025-11-25' });
    expect(client.version).toBe('2025-06-18');
    const refused = await client.request('ping', undefined, {
      headers: { 'mcp-protocol-version': '2025-11-25' },
    });
    expect(refused.http.status).toBe(400);
  });

  it('an MCP-Protocol-Version header naming an unsupported version gets 400 with a JSON-RPC error (id null)', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const http = await client.post(rpc(1, 'ping'), { 'mcp-protocol-version': '2099-01-01' });
    expect(http.status).toBe(400);
    expect(await http.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: expect.any(Number),
        data: {
          supported: ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
          requested: '2099-01-01',
        },
      },
    });
  });

  it('a 2025-03-26 session works without the MCP-Protocol-Version header', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, {
      version: '2025-03-26',
      versionHeader: false,
    });
    expect(client.headers()['mcp-protocol-version']).toBeUndefined();
    const result = await client.callTool('echo', { text: 'no header' });
    expect(result.content).toEqual([{ type: 'text', text: 'no header' }]);
  });

  it('a 2025-06-18 session also works when the header is left out (the negotiated version is used)', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, {
      version: '2025-06-18',
      versionHeader: false,
    });
    expect(await client.result('ping')).toEqual({});
  });

  it('requests without Mcp-Session-Id on a stateful endpoint get 400', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    client.sessionId = undefined;
    const { http } = await client.request('ping');
    expect(http.status).toBe(400);
  });

  it('only ping is served between the initialize answer and notifications/initialized', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { skipInitialized: true });
    expect(await client.result('ping')).toEqual({});
    const early = await client.request('tools/list');
    expect(early.response?.error?.code).toBe(-32600);
    await client.notify('notifications/initialized');
    expect(await client.result('tools/list')).toHaveProperty('tools');
  });

  it('initialize with malformed params is refused with -32602 and creates no session', async () => {
    await using server = await startReferenceServer();
    const client = new TestClient(server.url);
    const { http, response } = await client.request('initialize', { protocolVersion: 7 });
    expect(response?.error?.code).toBe(-32602);
    expect(http.headers.get('mcp-session-id')).toBeNull();
  });

  it('initialize carrying the id of a live session is refused with 400', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { http } = await client.request('initialize', initializeParams('2025-11-25'));
    expect(http.status).toBe(400);
  });

  it('each initialize creates a distinct session', async () => {
    await using server = await startReferenceServer();
    const first = await TestClient.connect(server.url);
    const second = await TestClient.connect(server.url);
    expect(first.sessionId).not.toBe(second.sessionId);
  });

  it('DELETE ends the session and later requests with its id get 404', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const deleted = await client.delete();
    expect(deleted.status).toBe(204);
    const { http } = await client.request('ping');
    expect(http.status).toBe(404);
    expect((await client.delete()).status).toBe(404);
  });

  it('dropSessions makes every old session id answer 404, and a new initialize starts over', async () => {
    await using server = await startReferenceServer();
    const first = await TestClient.connect(server.url);
    const second = await TestClient.connect(server.urls.statefulJson);
    server.faults.dropSessions();
    expect((await first.request('ping')).http.status).toBe(404);
    expect((await second.request('ping')).http.status).toBe(404);
    const again = await TestClient.connect(server.url);
    expect(await again.result('ping')).toEqual({});
  });

  it('a session id from /mcp is unknown on /mcp-json', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const other = new TestClient(server.urls.statefulJson);
    other.sessionId = client.sessionId;
    expect((await other.request('ping')).http.status).toBe(404);
  });
});
