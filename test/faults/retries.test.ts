/**
 * The retry policy on the wire: what may be sent again depends on what the server may have
 * seen, a Retry-After is honoured and capped, and every wait stays under the call's deadline.
 */
import { createServer } from 'node:net';
import { AbortedError, createMcpClient, HttpStatusError, TransportError } from '@toolwire/client';
import { HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { CUT, mcpServer, result, startFaultServer } from '../helpers/fault-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

const fast = { retry: { minDelayMs: 1, maxDelayMs: 5 } };
const done = (id: string | number | undefined) =>
  result(id, { content: [{ type: 'text', text: 'done' }] });

/** A tools/call fault that answers `reply` the first `times` calls, then succeeds. */
function failingFirst(times: number, reply: () => Response | typeof CUT) {
  let calls = 0;
  return mcpServer((message) => {
    if (message.method !== 'tools/call') return undefined;
    calls += 1;
    return calls <= times ? reply() : done(message.id);
  });
}

test('a 503 with Retry-After in seconds is retried, even for a tool that is not idempotent', async () => {
  await using server = await startFaultServer(
    failingFirst(
      2,
      () => new HttpResponse('busy', { status: 503, headers: { 'retry-after': '0' } }),
    ),
  );
  await using client = createMcpClient(server.url, fast);
  const outcome = await client.callTool('unsafe');
  expect(outcome.content).toEqual([{ type: 'text', text: 'done' }]);
  expect(server.callsOf('tools/call')).toHaveLength(3);
});

test('a 429 with Retry-After as an HTTP-date is retried', async () => {
  await using server = await startFaultServer(
    failingFirst(
      1,
      () =>
        new HttpResponse(null, {
          status: 429,
          headers: { 'retry-after': new Date(Date.now() + 50).toUTCString() },
        }),
    ),
  );
  await using client = createMcpClient(server.url, fast);
  await expect(client.callTool('unsafe')).resolves.toMatchObject({ isError: false });
  expect(server.callsOf('tools/call')).toHaveLength(2);
});

test("a Retry-After longer than maxRetryAfterMs fails the call at once with the server's wish", async () => {
  await using server = await startFaultServer(
    failingFirst(
      5,
      () => new HttpResponse(null, { status: 503, headers: { 'retry-after': '120' } }),
    ),
  );
  await using client = createMcpClient(server.url, {
    retry: { ...fast.retry, maxRetryAfterMs: 1_000 },
  });
  const error = await client.callTool('safe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HttpStatusError);
  expect(error).toMatchObject({ status: 503, retryAfterMs: 120_000, retryable: true });
  expect(server.callsOf('tools/call')).toHaveLength(1);
});

test('a 502 is not retried for a tool that is not idempotent', async () => {
  await using server = await startFaultServer(
    failingFirst(1, () => new HttpResponse('bad gateway', { status: 502 })),
  );
  await using client = createMcpClient(server.url, fast);
  await expect(client.callTool('unsafe')).rejects.toMatchObject({ status: 502 });
  expect(server.callsOf('tools/call')).toHaveLength(1);
});

test('a 502 is retried for a tool marked idempotentHint', async () => {
  await using server = await startFaultServer(
    failingFirst(1, () => new HttpResponse('bad gateway', { status: 502 })),
  );
  await using client = createMcpClient(server.url, fast);
  await expect(client.callTool('safe')).resolves.toMatchObject({ isError: false });
  expect(server.callsOf('tools/call')).toHaveLength(2);
});

test('a connection reset after the request was written never re-sends a non-idempotent tools/call', async () => {
  await using server = await startFaultServer(failingFirst(1, () => CUT));
  await using client = createMcpClient(server.url, fast);
  const error = await client.callTool('unsafe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TransportError);
  expect(error).toMatchObject({ requestSent: true, mayHaveRun: true, retryable: false });
  expect(server.callsOf('tools/call')).toHaveLength(1);
});

test('a connection reset is retried for an idempotent tool', async () => {
  await using server = await startFaultServer(failingFirst(1, () => CUT));
  await using client = createMcpClient(server.url, fast);
  await expect(client.callTool('safe')).resolves.toMatchObject({ isError: false });
  expect(server.callsOf('tools/call')).toHaveLength(2);
});

test('list requests are retried after any transient failure', async () => {
  let lists = 0;
  await using server = await startFaultServer(
    mcpServer((message) => {
      if (message.method !== 'tools/list') return undefined;
      lists += 1;
      return lists === 1 ? new HttpResponse('oops', { status: 504 }) : undefined;
    }),
  );
  await using client = createMcpClient(server.url, fast);
  expect((await client.listTools()).map((tool) => tool.name)).toEqual(['safe', 'unsafe']);
  expect(lists).toBe(2);
});

test('retries stop after retry.retries, surfacing the last error', async () => {
  await using server = await startFaultServer(
    failingFirst(99, () => new HttpResponse(null, { status: 503 })),
  );
  await using client = createMcpClient(server.url, { retry: { ...fast.retry, retries: 2 } });
  await expect(client.callTool('unsafe')).rejects.toMatchObject({ status: 503 });
  expect(server.callsOf('tools/call')).toHaveLength(3);
});

test('a refused connection is retried until the server comes up', async () => {
  const port = await freePort();
  await using client = createMcpClient(`http://127.0.0.1:${port}/mcp`, {
    retry: { minDelayMs: 100, maxDelayMs: 400, retries: 8 },
  });
  const listing = client.listTools();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await using server = await startFaultServer(
    mcpServer(() => undefined),
    { port },
  );
  expect((await listing).map((tool) => tool.name)).toEqual(['safe', 'unsafe']);
  expect(server.callsOf('initialize')).toHaveLength(1);
});

test('a refused connection that never recovers is a TransportError saying the request was not sent', async () => {
  const port = await freePort();
  await using client = createMcpClient(`http://127.0.0.1:${port}/mcp`, {
    retry: { ...fast.retry, retries: 1 },
  });
  const error = await client.listTools().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TransportError);
  expect(error).toMatchObject({ requestSent: false, code: 'TRANSPORT' });
  expect((error as Error).message).toContain('ECONNREFUSED');
});

test('aborting during a backoff wait rejects at once with AbortedError', async () => {
  await using server = await startFaultServer(
    failingFirst(
      99,
      () => new HttpResponse(null, { status: 503, headers: { 'retry-after': '10' } }),
    ),
  );
  await using client = createMcpClient(server.url);
  const controller = new AbortController();
  const call = client.callTool('unsafe', {}, { signal: controller.signal });
  // The 503 is in and the client is waiting out its Retry-After of 10 s.
  await waitFor(() => server.callsOf('tools/call').length === 1);
  controller.abort(new Error('user gave up'));
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AbortedError);
  expect((error as AbortedError).cause).toMatchObject({ message: 'user gave up' });
  expect(server.callsOf('tools/call')).toHaveLength(1);
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
