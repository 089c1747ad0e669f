/**
 * The client's lifecycle: cancellation reaches the server, `close()` ends what is running and
 * leaves nothing behind, and `await using` works.
 */
import { AbortedError, ClientClosedError, createMcpClient } from '@toolwire/client';
import { expect, test } from 'vitest';
import { mcpServer, startFaultServer } from '../helpers/fault-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

const hangOnCall = () =>
  mcpServer(
    (message) => (message.method === 'tools/call' ? new Promise<undefined>(() => {}) : undefined),
    {
      sessionId: 's-1',
    },
  );

/** Open sockets and timers, the resources a client could leak. */
function handles(): number {
  return process
    .getActiveResourcesInfo()
    .filter((kind) => kind === 'TCPSocketWrap' || kind === 'Timeout').length;
}

test('aborting a call sends notifications/cancelled with its request id and rejects with AbortedError', async () => {
  await using server = await startFaultServer(hangOnCall());
  await using client = createMcpClient(server.url);
  const controller = new AbortController();
  const call = client.callTool('unsafe', {}, { signal: controller.signal });
  await waitFor(() => server.callsOf('tools/call').length === 1);
  controller.abort(new Error('stop'));
  await expect(call).rejects.toBeInstanceOf(AbortedError);
  await waitFor(() => server.callsOf('notifications/cancelled').length === 1);
  const [cancelled] = server.callsOf('notifications/cancelled');
  const [called] = server.callsOf('tools/call');
  expect(cancelled?.body?.['params']).toMatchObject({
    requestId: called?.body?.['id'],
    reason: `call aborted: tools/call (unsafe) ${server.url}`,
  });
  expect(cancelled?.headers.get('mcp-session-id')).toBe('s-1');
});

test('a timeout also tells the server to stop', async () => {
  await using server = await startFaultServer(hangOnCall());
  await using client = createMcpClient(server.url);
  // Connected and listed first: the short timeout is for the call alone, however busy the machine.
  await client.listTools();
  await expect(client.callTool('unsafe', {}, { timeoutMs: 100 })).rejects.toMatchObject({
    code: 'TIMEOUT',
  });
  await waitFor(() => server.callsOf('notifications/cancelled').length === 1);
});

test('close() rejects running calls with ClientClosedError and deletes the session', async () => {
  await using server = await startFaultServer(hangOnCall());
  const client = createMcpClient(server.url);
  const call = client.callTool('unsafe').catch((e: unknown) => e);
  await waitFor(() => server.callsOf('tools/call').length === 1);
  await client.close();
  expect(await call).toBeInstanceOf(ClientClosedError);
  const deletes = server.calls.filter((c) => c.method === 'DELETE');
  expect(deletes).toHaveLength(1);
  expect(deletes[0]?.headers.get('mcp-session-id')).toBe('s-1');
  expect(deletes[0]?.headers.get('mcp-protocol-version')).toBe('2025-11-25');
  // The server is not told to cancel a call the client gave up on by closing: the session is gone.
  expect(server.callsOf('notifications/cancelled')).toHaveLength(0);
});

test('calls after close() reject with ClientClosedError and send nothing', async () => {
  await using server = await startFaultServer(mcpServer(() => undefined));
  const client = createMcpClient(server.url);
  await client.listTools();
  await client.close();
  const before = server.calls.length;
  await expect(client.listTools({ refresh: true })).rejects.toBeInstanceOf(ClientClosedError);
  await expect(client.callTool('safe')).rejects.toBeInstanceOf(ClientClosedError);
  expect(server.calls.length).toBe(before);
});

test('close() twice is safe, and close() before connecting sends nothing', async () => {
  await using server = await startFaultServer(mcpServer(() => undefined));
  const client = createMcpClient(server.url);
  await client.close();
  await client.close();
  expect(server.calls).toHaveLength(0);
});

test('await using closes the client and leaves no socket or timer behind', async () => {
  const server = await startFaultServer(
    mcpServer(() => undefined, { sessionId: 's-1' }),
    { keepAliveMs: 60_000 },
  );
  const baseline = handles();
  {
    await using client = createMcpClient(server.url, { timeoutMs: 5_000 });
    await client.listTools();
    await client.callTool('safe');
    expect(handles()).toBeGreaterThan(baseline);
  }
  // Measured with the server still up: only the client closing its sockets brings the count back.
  await waitFor(() => handles() <= baseline);
  expect(handles()).toBeLessThanOrEqual(baseline);
  await server.close();
});

test('close() during a hung call leaves no socket or timer behind', async () => {
  const server = await startFaultServer(hangOnCall(), { keepAliveMs: 60_000 });
  const baseline = handles();
  const client = createMcpClient(server.url);
  const call = client.callTool('unsafe').catch((e: unknown) => e);
  await waitFor(() => server.callsOf('tools/call').length === 1);
  await client.close();
  expect(await call).toBeInstanceOf(ClientClosedError);
  await waitFor(() => handles() <= baseline);
  expect(handles()).toBeLessThanOrEqual(baseline);
  await server.close();
});
