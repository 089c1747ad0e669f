/**
 * Every gRPC status in the client's error tree, and what is sent again: a status the server
 * answered with means it had the call, so only what may run twice (a listing, a tool marked
 * idempotent) or what the server refused without running (RESOURCE_EXHAUSTED, push-back) goes
 * again; a connection that never carried the call is always tried again.
 */
import { createServer } from 'node:net';
import {
  createMcpClient,
  GrpcStatusError,
  JsonRpcError,
  ResponseTooLargeError,
  TimeoutError,
  TransportError,
} from '@toolwire/client';
import { type GrpcStatusName, startGrpcReferenceServer } from '@toolwire/reference-server/grpc';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const fast = { retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 } };

interface StatusRow {
  code: GrpcStatusName;
  error: new (...args: never[]) => Error;
  fields: Record<string, unknown>;
}

/** What each status becomes; none of these is sent again for a call that is not idempotent. */
const TABLE: StatusRow[] = [
  { code: 'INVALID_ARGUMENT', error: JsonRpcError, fields: { rpcCode: -32602 } },
  { code: 'NOT_FOUND', error: JsonRpcError, fields: { rpcCode: -32601 } },
  { code: 'INTERNAL', error: JsonRpcError, fields: { rpcCode: -32603 } },
  { code: 'DEADLINE_EXCEEDED', error: TimeoutError, fields: { code: 'TIMEOUT' } },
  {
    code: 'UNAVAILABLE',
    error: GrpcStatusError,
    // Transient, but the server had the call: not safe to send again as it is.
    fields: { grpcStatus: 'UNAVAILABLE', grpcCode: 14, mayHaveRun: true, retryable: false },
  },
  {
    code: 'UNAUTHENTICATED',
    error: GrpcStatusError,
    fields: { grpcStatus: 'UNAUTHENTICATED', status: 401, retryable: false },
  },
  {
    code: 'PERMISSION_DENIED',
    error: GrpcStatusError,
    fields: { grpcStatus: 'PERMISSION_DENIED', status: 403, retryable: false },
  },
  {
    code: 'UNIMPLEMENTED',
    error: GrpcStatusError,
    fields: { grpcStatus: 'UNIMPLEMENTED', retryable: false },
  },
  { code: 'FAILED_PRECONDITION', error: GrpcStatusError, fields: { grpcCode: 9 } },
  { code: 'ABORTED', error: GrpcStatusError, fields: { grpcStatus: 'ABORTED' } },
  { code: 'ALREADY_EXISTS', error: GrpcStatusError, fields: { grpcStatus: 'ALREADY_EXISTS' } },
  { code: 'OUT_OF_RANGE', error: GrpcStatusError, fields: { grpcStatus: 'OUT_OF_RANGE' } },
  { code: 'DATA_LOSS', error: GrpcStatusError, fields: { grpcStatus: 'DATA_LOSS' } },
  { code: 'UNKNOWN', error: GrpcStatusError, fields: { grpcStatus: 'UNKNOWN' } },
  { code: 'CANCELLED', error: GrpcStatusError, fields: { grpcStatus: 'CANCELLED' } },
];

describe('the status table', () => {
  let server: Awaited<ReturnType<typeof startGrpcReferenceServer>>;
  beforeAll(async () => {
    server = await startGrpcReferenceServer();
  });
  afterAll(() => server.close());

  test.each(TABLE)('$code', async ({ code, error: type, fields }) => {
    await using client = createMcpClient(server.url, fast);
    await client.connect();
    server.faults.failNext(1, { code, message: `${code} by the fault`, rpc: 'CallTool' });
    const before = server.calls.length;
    const error = await client
      .callTool('transfer_funds', { amount: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ tool: 'transfer_funds', method: 'tools/call', ...fields });
    // The server had the call: it is not sent again.
    expect(server.calls.slice(before).filter((call) => call.rpc === 'CallTool')).toHaveLength(1);
  });
});

describe('what is sent again', () => {
  test('UNAVAILABLE on a listing: sent again, and the listing arrives', async () => {
    await using server = await startGrpcReferenceServer();
    server.faults.failNext(2, { code: 'UNAVAILABLE', rpc: 'GetTools' });
    await using client = createMcpClient(server.url, fast);
    expect((await client.listTools()).length).toBeGreaterThan(5);
    expect(server.calls.map((call) => call.status)).toEqual(['UNAVAILABLE', 'UNAVAILABLE', 'OK']);
  });

  test('RESOURCE_EXHAUSTED is push-back: any call goes again, after the wait asked for', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, fast);
    await client.connect();
    server.faults.failNext(1, { code: 'RESOURCE_EXHAUSTED', rpc: 'CallTool', pushbackMs: 150 });
    const result = await client.callTool('transfer_funds', { amount: 1 });
    expect(result.isError).toBe(false);
    const calls = server.calls.filter((call) => call.rpc === 'CallTool');
    expect(calls.map((call) => call.status)).toEqual(['RESOURCE_EXHAUSTED', 'OK']);
  });

  test('RESOURCE_EXHAUSTED with a negative push-back: not again, not retryable', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, fast);
    await client.connect();
    server.faults.failNext(1, { code: 'RESOURCE_EXHAUSTED', rpc: 'CallTool', pushbackMs: -1 });
    const error = await client
      .callTool('transfer_funds', { amount: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ grpcStatus: 'RESOURCE_EXHAUSTED', retryable: false });
    expect(server.calls.filter((call) => call.rpc === 'CallTool')).toHaveLength(1);
  });

  test('a redeem the server may have seen is never sent again', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, { ...fast, autoRedeem: false });
    const deferred = await client.callTool('analyze_dataset', { dataset_id: 'd' });
    server.faults.failNext(1, { code: 'UNAVAILABLE', rpc: 'CallTool' });
    const error = await client.redeem(deferred.pending!).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GrpcStatusError);
    // The token may be used up: the redeem is not sent again, the handle is kept for later.
    expect((error as GrpcStatusError).handle).toMatchObject({ kind: 'promise' });
    const redeems = server.calls.filter((call) => call.tool === 'redeem');
    expect(redeems.map((call) => call.status)).toEqual(['UNAVAILABLE']);
    const result = await client.redeem(deferred.pending!);
    expect(result.structuredContent).toEqual([{ dataset_id: 'd', rows: 1000, outliers: 3 }]);
  });

  test('a refused connection never carried the call: resendable, requestSent false', async () => {
    // A port that was free a moment ago and has no listener now.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    await using client = createMcpClient(`grpc://127.0.0.1:${port}`, {
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 },
    });
    const error = await client.callTool('echo', { text: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ requestSent: false, retryable: true });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });
});

describe('what the status carries', () => {
  test('a Struct detail is the data, as the HTTP binding`s JSON-RPC error data', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, fast);
    const error = await client.callTool('nonexistent').catch((caught: unknown) => caught);
    expect((error as { cause?: unknown }).cause).toMatchObject({
      rpcCode: -32601,
      data: { requested_tool: 'nonexistent', available_tools: expect.arrayContaining(['echo']) },
    });
  });

  test('a google.rpc.ErrorInfo detail is the data when no Struct came with it', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, fast);
    await client.connect();
    const errorInfo = { reason: 'QUOTA', domain: 'example.com', metadata: { plan: 'free' } };
    server.faults.failNext(1, { code: 'PERMISSION_DENIED', rpc: 'CallTool', errorInfo });
    const error = await client
      .callTool('transfer_funds', { amount: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ grpcStatus: 'PERMISSION_DENIED', data: errorInfo });
    expect((error as GrpcStatusError).serverMessage).toBe('PERMISSION_DENIED');
  });

  test('a message over maxResponseBytes is a ResponseTooLargeError', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, { ...fast, maxResponseBytes: 256 });
    const error = await client.connect().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 256 });
  });
});
