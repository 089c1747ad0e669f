/**
 * Headers and credentials over gRPC travel as metadata, asked of the same gate as over HTTP: the
 * `headers` option (static or a function asked per call), a call's own headers, and `auth` (a
 * token, a token function asked again after UNAUTHENTICATED, a provider). A refusal that fresh
 * credentials cannot help is the AuthorizationError HTTP gives.
 */
import { AuthorizationError, createMcpClient, GrpcStatusError } from '@toolwire/client';
import { startGrpcReferenceServer } from '@toolwire/reference-server/grpc';
import { expect, test } from 'vitest';

const noRetries = { retry: { retries: 0 } };

test('a token goes as authorization metadata on every RPC', async () => {
  await using server = await startGrpcReferenceServer();
  await using client = createMcpClient(server.url, { auth: 't0ken' });
  await client.callTool('echo', { text: 'x' });
  await client.callTool('generate_report', { topic: 'Q4' }, { onPartial: () => {} });
  expect(server.calls.map((call) => `${call.rpc} ${call.headers['authorization']}`)).toEqual([
    'GetTools Bearer t0ken',
    'CallTool Bearer t0ken',
    'CallToolStream Bearer t0ken',
  ]);
});

test('after UNAUTHENTICATED a token function is asked again and the call sent again, not as a retry', async () => {
  await using server = await startGrpcReferenceServer();
  let issued = 0;
  await using client = createMcpClient(server.url, {
    ...noRetries,
    auth: () => `token-${++issued}`,
  });
  await client.connect();
  server.faults.failNext(1, { code: 'UNAUTHENTICATED', rpc: 'CallTool' });
  const result = await client.callTool('transfer_funds', { amount: 5 });
  expect(result.isError).toBe(false);
  const calls = server.calls.filter((call) => call.rpc === 'CallTool');
  expect(calls.map((call) => [call.status, call.headers['authorization']])).toEqual([
    ['UNAUTHENTICATED', 'Bearer token-2'],
    ['OK', 'Bearer token-3'],
  ]);
});

test('a static token refused is an AuthorizationError; without auth, the status', async () => {
  await using server = await startGrpcReferenceServer();
  await using client = createMcpClient(server.url, { ...noRetries, auth: 'stale' });
  await client.connect();
  server.faults.failNext(1, { code: 'UNAUTHENTICATED', rpc: 'CallTool' });
  const error = await client.callTool('echo', { text: 'x' }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AuthorizationError);
  expect(error).toMatchObject({ reason: 'rejected', status: 401 });
  expect(String(error)).not.toContain('stale');
  await using bare = createMcpClient(server.url, noRetries);
  await bare.connect();
  server.faults.failNext(1, { code: 'UNAUTHENTICATED', rpc: 'CallTool' });
  const status = await bare.callTool('echo', { text: 'x' }).catch((caught: unknown) => caught);
  expect(status).toBeInstanceOf(GrpcStatusError);
  expect(status).toMatchObject({ grpcStatus: 'UNAUTHENTICATED', status: 401 });
});

test('headers as a function are asked for each call; a call`s own headers go on it alone', async () => {
  await using server = await startGrpcReferenceServer();
  let asked = 0;
  await using client = createMcpClient(server.url, {
    headers: () => ({ 'x-request': String(++asked) }),
  });
  await client.callTool('echo', { text: 'a' }, { headers: { 'x-call': 'first' } });
  await client.callTool('echo', { text: 'b' });
  expect(
    server.calls.map((call) => [call.rpc, call.headers['x-request'], call.headers['x-call']]),
  ).toEqual([
    ['GetTools', '1', undefined],
    ['CallTool', '2', 'first'],
    ['CallTool', '3', undefined],
  ]);
});

test('a provider`s headers travel too, and it hears the refusal', async () => {
  await using server = await startGrpcReferenceServer();
  const refusals: number[] = [];
  await using client = createMcpClient(server.url, {
    ...noRetries,
    auth: {
      headers: () => ({ authorization: 'Provider p' }),
      refused: ({ status }) => {
        refusals.push(status);
        return refusals.length === 1;
      },
    },
  });
  await client.connect();
  server.faults.failNext(1, { code: 'PERMISSION_DENIED', rpc: 'CallTool' });
  await client.callTool('echo', { text: 'x' });
  expect(refusals).toEqual([403]);
  expect(server.calls.at(-1)?.headers['authorization']).toBe('Provider p');
});
