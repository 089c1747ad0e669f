/**
 * A gRPC client's lifetime: `close()` ends its HTTP/2 session (the server sees it go), leaves no
 * socket or timer behind, and ends what was running with ClientClosedError, which the server
 * sees as a cancelled call.
 */
import { ClientClosedError, createMcpClient } from '@toolwire/client';
import { startGrpcReferenceServer } from '@toolwire/reference-server/grpc';
import { expect, test } from 'vitest';
import { handles, settledHandles } from '../helpers/handles.ts';
import { waitFor } from '../helpers/wait-for.ts';

test('close() leaves no HTTP/2 session, socket or timer behind', async () => {
  await using server = await startGrpcReferenceServer();
  const baseline = await settledHandles();
  const client = createMcpClient(server.url);
  let during = 0;
  await client.callTool(
    'generate_report',
    { topic: 'Q4', beats: 2, beat_ms: 20 },
    {
      onPartial: () => {
        during = handles();
      },
    },
  );
  expect(during).toBeGreaterThan(baseline);
  expect(server.sessions()).toBe(1);
  await client.close();
  await waitFor(() => server.sessions() === 0 && handles() <= baseline);
  expect(server.sessions()).toBe(0);
  expect(handles()).toBeLessThanOrEqual(baseline);
});

test('a call running when the client closes ends with ClientClosedError, cancelled on the server', async () => {
  await using server = await startGrpcReferenceServer();
  const client = createMcpClient(server.url);
  await client.connect();
  server.faults.delay(10_000);
  const running = client.callTool('echo', { text: 'x' }).catch((caught: unknown) => caught);
  await waitFor(() => server.calls.length === 2);
  await client.close();
  expect(await running).toBeInstanceOf(ClientClosedError);
  await waitFor(() => server.calls[1]?.status !== undefined && server.sessions() === 0);
  expect(server.calls[1]?.status).toBe('CANCELLED');
});

test('closing while the first listing is in flight leaves no session either', async () => {
  await using server = await startGrpcReferenceServer();
  server.faults.delay(10_000);
  const client = createMcpClient(server.url);
  const connecting = client.connect().catch((caught: unknown) => caught);
  await waitFor(() => server.calls.length === 1);
  await client.close();
  expect(await connecting).toBeInstanceOf(ClientClosedError);
  await waitFor(() => server.sessions() === 0);
  expect(server.sessions()).toBe(0);
});
