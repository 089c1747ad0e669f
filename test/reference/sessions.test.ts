/**
 * Sessions and streams against the reference server: the session id, its expiry and renewal,
 * the GET stream, and resumption of a broken call stream with Last-Event-ID.
 */
import { createMcpClient, SessionExpiredError } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { expect, test } from 'vitest';
import { posts, requestsOf, rpcBody, waitFor } from './helpers.ts';

const fast = { retry: { minDelayMs: 1, maxDelayMs: 10 } };

test('every request after initialize carries the session id, and close() deletes the session', async () => {
  await using server = await startReferenceServer();
  const client = createMcpClient(server.url);
  await client.callTool('echo', { text: 'a' });
  await client.close();
  // The modern probe carries no session: the handshake starts with initialize.
  const [initialize, ...later] = server.log.filter(
    (entry) => rpcBody(entry.body).method !== 'server/discover',
  );
  expect(initialize?.sessionId).toBeUndefined();
  const ids = new Set(later.map((entry) => entry.sessionId));
  expect(ids.size).toBe(1);
  expect([...ids][0]).toMatch(/\S+/);
  expect(requestsOf(server, 'DELETE')).toHaveLength(1);
});

test('a dropped session is renewed once and the call replayed, even a call that is not idempotent', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { ...fast, listen: false });
  expect((await client.callTool('count')).content).toEqual([{ type: 'text', text: '1' }]);
  server.faults.dropSessions();
  // The 404 answered the POST itself: the server did not know the session, so it ran nothing.
  expect((await client.callTool('count')).content).toEqual([{ type: 'text', text: '2' }]);
  expect(posts(server, 'initialize')).toHaveLength(2);
  const [first, second] = posts(server, 'initialize');
  expect(second?.headers['mcp-session-id']).toBeUndefined();
  expect(first?.sessionId).toBeUndefined();
});

test('concurrent calls that find the session gone renew it only once', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { ...fast, listen: false });
  await client.listTools();
  server.faults.dropSessions();
  const results = await Promise.all(
    Array.from({ length: 5 }, (_, i) => client.callTool('echo', { text: `n${i}` })),
  );
  expect(results.map((result) => result.content[0])).toEqual(
    Array.from({ length: 5 }, (_, i) => ({ type: 'text', text: `n${i}` })),
  );
  expect(posts(server, 'initialize')).toHaveLength(2);
});

test('the GET stream delivers list_changed, which drops the tool cache', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const before = await client.listTools();
  expect(before.map((tool) => tool.name)).not.toContain('bonus');
  await waitFor(() => requestsOf(server, 'GET').length > 0);
  const changed = new Promise<void>((resolve) => client.on('toolsChanged', resolve));
  await client.callTool('toggle_tool');
  await changed;
  const after = await client.listTools();
  expect(after.map((tool) => tool.name)).toContain('bonus');
  expect(posts(server, 'tools/list').length).toBeGreaterThan(1);
  expect((await client.callTool('bonus')).content).toEqual([{ type: 'text', text: 'bonus' }]);
});

test('the tool list is cached: a second listTools() sends nothing', async () => {
  await using server = await startReferenceServer({ pageSize: 3 });
  await using client = createMcpClient(server.url, { listen: false });
  const first = await client.listTools();
  const pages = posts(server, 'tools/list').length;
  expect(pages).toBeGreaterThan(1);
  expect(await client.listTools()).toEqual(first);
  expect(posts(server, 'tools/list')).toHaveLength(pages);
  await client.listTools({ refresh: true });
  expect(posts(server, 'tools/list')).toHaveLength(pages * 2);
});

test('a call stream cut after some events is resumed with Last-Event-ID and the response arrives', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { ...fast, listen: false });
  await client.listTools();
  server.faults.cutStreamAfter(2);
  const seen: number[] = [];
  const result = await client.callTool(
    'progress',
    { steps: 4, delayMs: 5 },
    { onProgress: (p) => seen.push(p.progress) },
  );
  expect(result.content).toEqual([{ type: 'text', text: 'done after 4 steps' }]);
  expect(seen).toEqual([1, 2, 3, 4]);
  const resumes = requestsOf(server, 'GET').filter((entry) => entry.headers['last-event-id']);
  expect(resumes.length).toBeGreaterThanOrEqual(1);
  // Resuming is not re-sending: the tool ran once.
  expect(posts(server, 'tools/call')).toHaveLength(1);
});

test('a server that closes the stream after priming (2025-11-25 polling) is polled until the response comes', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { ...fast, listen: false });
  await client.listTools();
  server.faults.closeAfterPriming(20);
  expect((await client.callTool('count')).content).toEqual([{ type: 'text', text: '1' }]);
  expect(requestsOf(server, 'GET').some((entry) => entry.headers['last-event-id'])).toBe(true);
  expect(posts(server, 'tools/call')).toHaveLength(1);
});

test('a session that vanishes while a non-idempotent call is being resumed ends in SessionExpiredError', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { ...fast, listen: false });
  await client.listTools();
  // The server asks for 500 ms before the client resumes: time to drop the session first.
  server.faults.closeAfterPriming(500);
  const call = client.callTool('count').catch((e: unknown) => e);
  await waitFor(() => posts(server, 'tools/call').length === 1);
  server.faults.dropSessions();
  const error = await call;
  expect(error).toBeInstanceOf(SessionExpiredError);
  expect(error).toMatchObject({
    code: 'SESSION_EXPIRED',
    tool: 'count',
    mayHaveRun: true,
    retryable: false,
  });
  // The client is usable again: it started a new session.
  expect((await client.callTool('echo', { text: 'again' })).content[0]).toEqual({
    type: 'text',
    text: 'again',
  });
});

test('the server asking the client for a ping mid-call gets an answer', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const result = await client.callTool('ping_client');
  expect(result).toMatchObject({
    isError: false,
    content: [{ type: 'text', text: 'client answered ping' }],
  });
  const replies = server.log.filter(
    (entry) =>
      entry.httpMethod === 'POST' &&
      typeof entry.body === 'object' &&
      entry.body !== null &&
      'result' in entry.body,
  );
  expect(replies).toHaveLength(1);
  expect(replies[0]?.sessionId).toBeDefined();
});

test('the JSON-only endpoint works, with progress arriving over the GET stream', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.statefulJson);
  await client.connect();
  await waitFor(() => requestsOf(server, 'GET').length > 0);
  const seen: number[] = [];
  const result = await client.callTool(
    'progress',
    { steps: 3, delayMs: 20 },
    { onProgress: (p) => seen.push(p.progress) },
  );
  expect(result.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
  // Progress travels on the GET stream and the answer on the POST: across two connections the
  // last report may land after the call has finished. What came before it arrived, in order.
  expect(seen.length).toBeGreaterThanOrEqual(2);
  expect(seen).toEqual([1, 2, 3].slice(0, seen.length));
});

test('client.ping() is answered', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  await expect(client.ping()).resolves.toBeUndefined();
  expect(posts(server, 'ping')).toHaveLength(1);
});
