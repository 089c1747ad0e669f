import { describe, expect, it } from 'vitest';
import { startReferenceServer } from './index.ts';
import { messagesOf, readExchange, rpc, TestClient } from './testing/client.ts';
import { SseReader } from './testing/sse.ts';

const progressCall = (id: number, steps: number) =>
  rpc(id, 'tools/call', {
    name: 'progress',
    arguments: { steps, delayMs: 5 },
    _meta: { progressToken: `token-${id}` },
  });

describe('server-initiated messages and streams', () => {
  it('the GET stream receives tools/list_changed after toggle_tool, and the POST stream does not', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { http, reader } = await client.get();
    expect(http.status).toBe(200);
    expect(http.headers.get('content-type')).toBe('text/event-stream');
    const call = await client.request('tools/call', { name: 'toggle_tool', arguments: {} });
    expect(call.messages.map((message) => message.method)).toEqual([undefined]);
    const events = await reader.readUntil((event) => event.data.includes('list_changed'));
    expect(messagesOf(events)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
    ]);
    await reader.cancel();
  });

  it('without a GET stream, list_changed travels on the POST stream of the call that caused it', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const call = await client.request('tools/call', { name: 'toggle_tool', arguments: {} });
    expect(call.messages.map((message) => message.method)).toEqual([
      'notifications/tools/list_changed',
      undefined,
    ]);
  });

  it('other sessions hear list_changed on their GET stream', async () => {
    await using server = await startReferenceServer();
    const caller = await TestClient.connect(server.url);
    const listener = await TestClient.connect(server.urls.statefulJson);
    const { reader } = await listener.get();
    await caller.callTool('toggle_tool');
    const events = await reader.readUntil((event) => event.data.includes('list_changed'));
    expect(messagesOf(events).at(-1)?.method).toBe('notifications/tools/list_changed');
    await reader.cancel();
  });

  it('a second plain GET while the session already has one open gets 409', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const first = await client.get();
    const second = await client.get();
    expect(second.http.status).toBe(409);
    await first.reader.cancel();
  });

  it('progress notifications arrive on the POST stream with the progress token, before the response', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const http = await client.post(progressCall(7, 3));
    const { messages, response } = await readExchange(http, 7);
    expect(messages.slice(0, 3)).toEqual(
      [1, 2, 3].map((progress) => ({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'token-7', progress, total: 3, message: `step ${progress}` },
      })),
    );
    expect(response?.result).toEqual({ content: [{ type: 'text', text: 'done after 3 steps' }] });
  });

  it('on /mcp-json progress goes to the GET stream when one is open', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.urls.statefulJson);
    const { reader } = await client.get();
    const http = await client.post(progressCall(3, 2));
    expect(await http.json()).toMatchObject({
      id: 3,
      result: { content: [{ text: 'done after 2 steps' }] },
    });
    const events = await reader.readUntil((event) => event.data.includes('"progress":2'));
    expect(messagesOf(events).map((message) => message.params?.['progress'])).toEqual([1, 2]);
    await reader.cancel();
  });

  it('a stream cut by cutStreamAfter is resumed with Last-Event-ID, and the response arrives there', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    server.faults.cutStreamAfter(2);
    const http = await client.post(progressCall(11, 4));
    const cut = await new SseReader(http.body).readAll();
    expect(cut.broken).toBe(true);
    expect(cut.events).toHaveLength(2);
    expect(cut.events[0]?.data).toBe('');
    const lastId = cut.events.at(-1)?.id;
    expect(lastId).toBeDefined();

    const resumed = await client.get(lastId);
    expect(resumed.http.status).toBe(200);
    const rest = await resumed.reader.readAll();
    expect(rest.broken).toBe(false);
    const all = [...messagesOf(cut.events), ...messagesOf(rest.events)];
    expect(
      all.filter((m) => m.method === 'notifications/progress').map((m) => m.params?.['progress']),
    ).toEqual([1, 2, 3, 4]);
    expect(all.at(-1)).toMatchObject({
      id: 11,
      result: { content: [{ text: 'done after 4 steps' }] },
    });
    const ids = [...cut.events, ...rest.events].map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('cutStreamAfter strikes before the response even when fewer events come first', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { version: '2025-06-18' });
    server.faults.cutStreamAfter(10);
    const http = await client.post(progressCall(5, 1));
    const cut = await new SseReader(http.body).readAll();
    expect(cut.broken).toBe(true);
    expect(messagesOf(cut.events).map((message) => message.method)).toEqual([
      'notifications/progress',
    ]);
    const resumed = await client.get(cut.events.at(-1)?.id);
    const rest = await resumed.reader.readAll();
    expect(messagesOf(rest.events)).toEqual([
      {
        jsonrpc: '2.0',
        id: 5,
        result: { content: [{ type: 'text', text: 'done after 1 steps' }] },
      },
    ]);
  });

  it('cutStreamAfter(0) cuts the connection before any event, priming included', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    server.faults.cutStreamAfter(0);
    const http = await client.post(rpc(6, 'ping'));
    expect(http.status).toBe(200);
    expect(await new SseReader(http.body).readAll()).toEqual({ events: [], broken: true });
    expect(await client.result('ping')).toEqual({});
  });

  it('closeAfterPriming sends a priming event with retry, ends cleanly, and the response arrives on GET with Last-Event-ID', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    server.faults.closeAfterPriming(25);
    const http = await client.post(
      rpc(4, 'tools/call', { name: 'echo', arguments: { text: 'later' } }),
    );
    const first = await new SseReader(http.body).readAll();
    expect(first.broken).toBe(false);
    expect(first.events).toEqual([{ id: expect.any(String), data: '', retry: 25 }]);
    const resumed = await client.get(first.events[0]?.id);
    const rest = await resumed.reader.readAll();
    expect(messagesOf(rest.events)).toEqual([
      { jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: 'later' }] } },
    ]);
  });

  it('resuming a stream that has nothing left ends at once', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { events } = await client.request('ping');
    const resumed = await client.get(events.at(-1)?.id);
    expect(await resumed.reader.readAll()).toEqual({ events: [], broken: false });
  });

  it('a Last-Event-ID that belongs to no stream of the session gets 400', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { http } = await client.get('999-1');
    expect(http.status).toBe(400);
  });

  it('ping_client pings the client on the POST stream and finishes once the client POSTs its answer', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const http = await client.post(rpc(21, 'tools/call', { name: 'ping_client', arguments: {} }));
    const reader = new SseReader(http.body);
    const events = await reader.readUntil((event) => event.data.includes('"ping"'));
    const ping = messagesOf(events).at(-1);
    expect(ping).toMatchObject({ jsonrpc: '2.0', method: 'ping', id: expect.any(String) });
    const ack = await client.post({ jsonrpc: '2.0', id: ping?.id, result: {} });
    expect(ack.status).toBe(202);
    const rest = messagesOf((await reader.readAll()).events);
    expect(rest).toEqual([
      {
        jsonrpc: '2.0',
        id: 21,
        result: { content: [{ type: 'text', text: 'client answered ping' }] },
      },
    ]);
  });

  it('ping_client on /mcp-json sends its ping on the GET stream', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.urls.statefulJson);
    const { reader } = await client.get();
    const pending = client.post(rpc(22, 'tools/call', { name: 'ping_client', arguments: {} }));
    const events = await reader.readUntil((event) => event.data.includes('"ping"'));
    const ping = messagesOf(events).at(-1);
    await client.post({ jsonrpc: '2.0', id: ping?.id, result: {} });
    expect(await (await pending).json()).toMatchObject({
      id: 22,
      result: { content: [{ text: 'client answered ping' }] },
    });
    await reader.cancel();
  });

  it('ping_client reports an error result when there is no stream to reach the client', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.urls.statefulJson);
    const result = await client.callTool('ping_client');
    expect(result.isError).toBe(true);
  });

  it('dropSessions ends open GET streams', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { reader } = await client.get();
    server.faults.dropSessions();
    expect((await reader.readAll()).broken).toBe(false);
  });

  it('DELETE ends the session’s open GET stream', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const { reader } = await client.get();
    await client.delete();
    expect((await reader.readAll()).broken).toBe(false);
  });
});
