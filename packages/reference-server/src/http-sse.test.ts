/** The 2024-11-05 HTTP+SSE transport (/sse and /messages), checked against that revision's spec. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceServer, startReferenceServer } from './index.ts';
import { initializeParams, rpc } from './testing/client.ts';
import { type SseEvent, SseReader } from './testing/sse.ts';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => {
  await server.close();
});

/** An open HTTP+SSE connection: its stream and the URL its endpoint event named. */
async function connect(): Promise<{ reader: SseReader; endpoint: string; abort: AbortController }> {
  const abort = new AbortController();
  const http = await fetch(server.urls.sse, {
    headers: { accept: 'text/event-stream' },
    signal: abort.signal,
  });
  expect(http.status).toBe(200);
  expect(http.headers.get('content-type')).toBe('text/event-stream');
  const reader = new SseReader(http.body);
  const first = await reader.next();
  expect(first?.event).toBe('endpoint');
  return { reader, endpoint: new URL(first?.data ?? '', server.urls.sse).href, abort };
}

function post(endpoint: string, body: unknown): Promise<Response> {
  return fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function nextMessage(reader: SseReader): Promise<Record<string, unknown>> {
  const event: SseEvent | undefined = await reader.next();
  expect(event?.event).toBe('message');
  return JSON.parse(event?.data ?? '{}');
}

async function initialized(): Promise<Awaited<ReturnType<typeof connect>>> {
  const connection = await connect();
  const accepted = await post(
    connection.endpoint,
    rpc(1, 'initialize', initializeParams('2024-11-05')),
  );
  expect(accepted.status).toBe(202);
  expect(await nextMessage(connection.reader)).toMatchObject({
    id: 1,
    result: { protocolVersion: '2024-11-05', serverInfo: { name: 'toolwire-reference-server' } },
  });
  expect(
    (await post(connection.endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' }))
      .status,
  ).toBe(202);
  return connection;
}

describe('HTTP+SSE transport (2024-11-05)', () => {
  it('names a POST endpoint with its session id in the first event', async () => {
    const { endpoint, abort } = await connect();
    expect(endpoint).toMatch(/\/messages\?sessionId=[0-9a-f-]{36}$/);
    abort.abort();
  });

  it('accepts every POST with 202 and answers on the stream as message events', async () => {
    const { reader, endpoint, abort } = await initialized();
    expect(
      (await post(endpoint, rpc(2, 'tools/call', { name: 'echo', arguments: { text: 'old' } })))
        .status,
    ).toBe(202);
    expect(await nextMessage(reader)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'old' }] },
    });
    abort.abort();
  });

  it('sends notifications and server requests on the stream too', async () => {
    const { reader, endpoint, abort } = await initialized();
    await post(
      endpoint,
      rpc(3, 'tools/call', {
        name: 'progress',
        arguments: { steps: 1, delayMs: 1 },
        _meta: { progressToken: 7 },
      }),
    );
    expect(await nextMessage(reader)).toMatchObject({
      method: 'notifications/progress',
      params: { progressToken: 7 },
    });
    expect(await nextMessage(reader)).toMatchObject({
      id: 3,
      result: { content: [{ text: 'done after 1 steps' }] },
    });
    await post(endpoint, rpc(4, 'tools/call', { name: 'ping_client', arguments: {} }));
    const ping = await nextMessage(reader);
    expect(ping).toMatchObject({ method: 'ping' });
    expect((await post(endpoint, { jsonrpc: '2.0', id: ping['id'], result: {} })).status).toBe(202);
    expect(await nextMessage(reader)).toMatchObject({
      id: 4,
      result: { content: [{ text: 'client answered ping' }] },
    });
    abort.abort();
  });

  it('refuses a POST to the stream URL (405) and an unknown session (404)', async () => {
    const onStream = await post(
      server.urls.sse,
      rpc(1, 'initialize', initializeParams('2024-11-05')),
    );
    expect(onStream.status).toBe(405);
    const unknown = await post(
      `${new URL(server.urls.sse).origin}/messages?sessionId=nope`,
      rpc(1, 'ping'),
    );
    expect(unknown.status).toBe(404);
  });

  it('forgets the session when the stream closes', async () => {
    const { endpoint, abort } = await initialized();
    abort.abort();
    await expect.poll(async () => (await post(endpoint, rpc(5, 'ping'))).status).toBe(404);
  });
});
