/**
 * The deprecated HTTP+SSE transport (2024-11-05), reached only the way the transport spec says:
 * after the initialize POST is refused with 400, 404 or 405.
 */
import { createMcpClient, memoryVerdictStore, UnsupportedServerError } from '@toolwire/client';
import { HttpResponse, http } from 'msw';
import { expect, test } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.ts';
import { startSdkSseServer } from '../helpers/sdk-sse-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

test('an HTTP+SSE server is reached after initialize is refused, and works', async () => {
  await using server = await startSdkSseServer();
  const verdicts = memoryVerdictStore();
  await using client = createMcpClient(server.url, { verdicts });
  const seen: number[] = [];
  const result = await client.callTool(
    'progress',
    { steps: 3 },
    { onProgress: (p) => seen.push(p.progress) },
  );
  expect(client.dialect).toBe('mcp-sse');
  expect(client.protocolVersion).toBe('2024-11-05');
  expect(result.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
  expect(seen).toEqual([1, 2, 3]);
  expect((await client.callTool('echo', { text: 'over sse' })).content[0]).toEqual({
    type: 'text',
    text: 'over sse',
  });
  expect(server.requests.slice(0, 3)).toEqual([
    { method: 'POST', path: '/sse' },
    { method: 'POST', path: '/sse' },
    { method: 'GET', path: '/sse' },
  ]);
  expect(await verdicts.get(server.url)).toEqual({ dialect: 'mcp-sse', version: '2024-11-05' });
});

test('a kept HTTP+SSE verdict goes straight to the stream', async () => {
  await using server = await startSdkSseServer();
  const verdicts = memoryVerdictStore();
  await verdicts.set(server.url, { dialect: 'mcp-sse', version: '2024-11-05' });
  await using client = createMcpClient(server.url, { verdicts });
  await client.listTools();
  expect(server.requests[0]).toEqual({ method: 'GET', path: '/sse' });
});

test('when the HTTP+SSE fallback fails too, the original refusal is the cause and every attempt is listed', async () => {
  await using server = await startFaultServer([
    http.post('*/mcp', () => new HttpResponse('Method Not Allowed', { status: 405 })),
    http.get('*/mcp', () => new HttpResponse('nope', { status: 404 })),
  ]);
  await using client = createMcpClient(server.url, {
    retry: { minDelayMs: 1 },
  });
  const error = await client.connect().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnsupportedServerError);
  // HTTP+SSE's GET, then MCP-lite's two discovery endpoints.
  expect((error as UnsupportedServerError).probes).toHaveLength(5);
  expect((error as UnsupportedServerError).probes[2]).toMatch(
    /^GET \(HTTP\+SSE\): server answered HTTP 404/,
  );
  expect((error as Error).cause).toMatchObject({ status: 405, method: 'initialize' });
});

test('closing an HTTP+SSE client leaves the stream closed', async () => {
  await using server = await startSdkSseServer();
  const client = createMcpClient(server.url);
  await client.listTools();
  await client.close();
  await expect(client.listTools({ refresh: true })).rejects.toMatchObject({
    code: 'CLIENT_CLOSED',
  });
});

test('a dropped HTTP+SSE stream fails the call waiting on it, and the next call opens a new stream and initializes again', async () => {
  await using server = await startSdkSseServer();
  await using client = createMcpClient(server.url);
  await client.listTools();
  const waiting = client.callTool('wait', {}).catch((error: unknown) => error);
  await waitFor(() => server.waiting === 1);
  server.dropStreams();
  expect(await waiting).toMatchObject({ code: 'STREAM_TRUNCATED' });
  expect((await client.callTool('echo', { text: 'again' })).content[0]).toEqual({
    type: 'text',
    text: 'again',
  });
  expect(server.requests.filter((request) => request.method === 'GET')).toHaveLength(2);
  expect(server.initializes).toBe(2);
});

test('aborting a call over HTTP+SSE tells the server with notifications/cancelled', async () => {
  await using server = await startSdkSseServer();
  await using client = createMcpClient(server.url);
  const controller = new AbortController();
  const call = client
    .callTool('wait', {}, { signal: controller.signal })
    .catch((error: unknown) => error);
  await waitFor(() => server.waiting === 1);
  controller.abort(new Error('user gave up'));
  expect(await call).toMatchObject({ code: 'ABORTED' });
  await waitFor(() => server.cancelled === 1);
  expect(server.waiting).toBe(0);
});
