/**
 * One rule for sending again, whatever request of the exchange failed: once the server may have
 * seen a call, a call that is not idempotent is never sent again. Every error says whether the
 * call may have run (`mayHaveRun`), and `retryable` means "safe to send again as it is".
 */
import {
  createMcpClient,
  HttpStatusError,
  MalformedMessageError,
  StreamTruncatedError,
  TimeoutError,
} from '@toolwire/client';
import { HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import {
  mcpServer,
  result,
  sessionServer,
  sseBody,
  sseEvent,
  startFaultServer,
} from '../helpers/fault-server.ts';

const fast = {
  retry: { minDelayMs: 1, maxDelayMs: 5 },
  listen: false,
  protocolVersion: '2025-11-25',
} as const;
const done = (id: string | number | undefined) =>
  result(id, { content: [{ type: 'text', text: 'done' }] });
const unavailable = () =>
  new HttpResponse('busy', { status: 503, headers: { 'retry-after': '0' } });

/** tools/call answered by a stream that breaks after its first event id; GETs answered by `get`. */
function brokenStream(get: (request: Request) => Response) {
  return sessionServer(
    (message) =>
      message.method === 'tools/call'
        ? sseBody([sseEvent('', 'e-1')], { breakAfter: true })
        : undefined,
    { get },
  );
}

test('a resume GET answered 503 never sends a non-idempotent call again', async () => {
  const { handlers } = brokenStream(() => unavailable());
  await using server = await startFaultServer(handlers);
  await using client = createMcpClient(server.url, fast);
  const error = await client.callTool('unsafe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StreamTruncatedError);
  expect(error).toMatchObject({ mayHaveRun: true, retryable: false, tool: 'unsafe' });
  // The stream failed, not the POST: the POST went out once, the resume was tried again.
  expect(server.callsOf('tools/call')).toHaveLength(1);
  const resumes = server.calls.filter((call) => call.method === 'GET');
  expect(resumes.length).toBeGreaterThan(1);
  expect(resumes.every((call) => call.headers.get('last-event-id') === 'e-1')).toBe(true);
});

test('a resume GET answered 503 once is tried again and the call completes with one POST', async () => {
  let gets = 0;
  let callId: string | number | undefined;
  const { handlers } = sessionServer(
    (message) => {
      if (message.method !== 'tools/call') return undefined;
      callId = message.id;
      return sseBody([sseEvent('', 'e-1')], { breakAfter: true });
    },
    {
      get: () => {
        gets += 1;
        if (gets === 1) return unavailable();
        return sseBody([sseEvent({ jsonrpc: '2.0', id: callId, result: { content: [] } }, 'e-2')]);
      },
    },
  );
  await using server = await startFaultServer(handlers);
  await using client = createMcpClient(server.url, fast);
  await expect(client.callTool('unsafe')).resolves.toMatchObject({ content: [] });
  expect(server.callsOf('tools/call')).toHaveLength(1);
  expect(gets).toBe(2);
});

test('an idempotent call whose resume keeps failing is sent again', async () => {
  let posts = 0;
  const { handlers } = sessionServer(
    (message) => {
      if (message.method !== 'tools/call') return undefined;
      posts += 1;
      return posts === 1 ? sseBody([sseEvent('', 'e-1')], { breakAfter: true }) : done(message.id);
    },
    { get: () => unavailable() },
  );
  await using server = await startFaultServer(handlers);
  await using client = createMcpClient(server.url, fast);
  await expect(client.callTool('safe')).resolves.toMatchObject({ isError: false });
  expect(posts).toBe(2);
});

test('a call held past its deadline: the TimeoutError says it may have run, and is not retryable', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call' ? new Promise<undefined>(() => {}) : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  await client.listTools();
  const unsafe = await client.callTool('unsafe', {}, { timeoutMs: 100 }).catch((e: unknown) => e);
  expect(unsafe).toBeInstanceOf(TimeoutError);
  expect(unsafe).toMatchObject({ mayHaveRun: true, retryable: false });
  // An idempotent call may run twice: sending it again is safe.
  const safe = await client.callTool('safe', {}, { timeoutMs: 100 }).catch((e: unknown) => e);
  expect(safe).toMatchObject({ code: 'TIMEOUT', mayHaveRun: true, retryable: true });
});

test('a call refused with 503 until retries ran out did not run, and is safe to send again', async () => {
  await using server = await startFaultServer(
    mcpServer((message) => (message.method === 'tools/call' ? unavailable() : undefined)),
  );
  await using client = createMcpClient(server.url, fast);
  const error = await client.callTool('unsafe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HttpStatusError);
  expect(error).toMatchObject({ status: 503, mayHaveRun: false, retryable: true });
  expect(server.callsOf('tools/call')).toHaveLength(4);
});

test('a malformed answer to a call the server ran says the call may have run', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call'
        ? new HttpResponse('{"jsonrpc":"2.0","id":', {
            headers: { 'content-type': 'application/json' },
          })
        : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  const error = await client.callTool('unsafe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MalformedMessageError);
  expect(error).toMatchObject({ mayHaveRun: true, retryable: false });
});

test('a JSON-RPC error the server answered with says the call did not run', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/call'
        ? HttpResponse.json({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32602, message: 'bad arguments' },
          })
        : undefined,
    ),
  );
  await using client = createMcpClient(server.url, fast);
  const error = await client.callTool('unsafe').catch((e: unknown) => e);
  expect(error).toMatchObject({ code: 'JSON_RPC', rpcCode: -32602, mayHaveRun: false });
});
