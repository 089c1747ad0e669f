import { describe, expect, it } from 'vitest';
import { startReferenceServer } from './index.ts';
import { messagesOf, rpc, TestClient } from './testing/client.ts';
import { SseReader } from './testing/sse.ts';

const slowCall = (id: number | string) =>
  rpc(id, 'tools/call', { name: 'slow', arguments: { ms: 600000 } });

describe('concurrency and cancellation', () => {
  it('a long-running request does not hold up other requests of the same session', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const slow = await client.post(slowCall(1));
    const reader = new SseReader(slow.body);
    const echo = await client.callTool('echo', { text: 'meanwhile' });
    expect(echo.content).toEqual([{ type: 'text', text: 'meanwhile' }]);
    await client.notify('notifications/cancelled', { requestId: 1 });
    await reader.readAll();
  });

  it('notifications/cancelled aborts the in-flight request: its stream ends without a response, and the cancellation is recorded', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const slow = await client.post(slowCall('slow-1'));
    const ack = await client.notify('notifications/cancelled', {
      requestId: 'slow-1',
      reason: 'user gave up',
    });
    expect(ack.status).toBe(202);
    const { events, broken } = await new SseReader(slow.body).readAll();
    expect(broken).toBe(false);
    expect(messagesOf(events)).toEqual([]);
    expect(server.cancelled).toEqual([{ requestId: 'slow-1', reason: 'user gave up' }]);
  });

  it('on /mcp-json a cancelled request ends with 204 and no body', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.urls.statefulJson);
    const pending = client.post(slowCall(2));
    // The request must be in flight before it can be cancelled: wait until the server logged it.
    while (!server.log.some((entry) => JSON.stringify(entry.body)?.includes('"slow"'))) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    await client.notify('notifications/cancelled', { requestId: 2 });
    const http = await pending;
    expect(http.status).toBe(204);
    expect(await http.text()).toBe('');
    expect(server.cancelled).toEqual([{ requestId: 2 }]);
  });

  it('cancelling only affects the request with that id', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const doomed = await client.post(slowCall(1));
    const survivor = await client.post(
      rpc(2, 'tools/call', { name: 'progress', arguments: { steps: 3, delayMs: 5 } }),
    );
    await client.notify('notifications/cancelled', { requestId: 1 });
    expect(messagesOf((await new SseReader(doomed.body).readAll()).events)).toEqual([]);
    const rest = messagesOf((await new SseReader(survivor.body).readAll()).events);
    expect(rest).toEqual([
      {
        jsonrpc: '2.0',
        id: 2,
        result: { content: [{ type: 'text', text: 'done after 3 steps' }] },
      },
    ]);
  });

  it('cancellations of unknown requests are recorded and otherwise ignored', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    expect((await client.notify('notifications/cancelled', { requestId: 404 })).status).toBe(202);
    expect(server.cancelled).toEqual([{ requestId: 404 }]);
    expect(await client.result('ping')).toEqual({});
  });

  it('the stateless endpoint can cancel its in-flight requests too', async () => {
    await using server = await startReferenceServer();
    const headers = { 'content-type': 'application/json', accept: 'application/json' };
    const pending = fetch(server.urls.stateless, {
      method: 'POST',
      headers,
      body: JSON.stringify(slowCall(8)),
    });
    while (server.log.length === 0 || server.log[0]?.body === undefined) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    await fetch(server.urls.stateless, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 8 },
      }),
    });
    expect((await pending).status).toBe(204);
  });
});
