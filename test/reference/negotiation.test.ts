/**
 * The stateful handshake against the reference server: which revision is agreed, and which
 * headers each revision puts on the wire.
 */
import { createMcpClient, UnsupportedVersionError } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { describe, expect, test } from 'vitest';
import { posts, requestsOf, rpcBody, waitFor } from './helpers.ts';

test('initialize offers 2025-11-25, learns the server, then sends notifications/initialized', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  await client.connect();
  expect(client.protocolVersion).toBe('2025-11-25');
  expect(client.dialect).toBe('mcp-stateful');
  expect(client.serverInfo?.name).toBe('toolwire-reference-server');
  expect(client.serverCapabilities).toMatchObject({ tools: { listChanged: true }, logging: {} });
  expect(typeof client.instructions).toBe('string');
  const [initialize] = posts(server, 'initialize');
  expect(initialize?.body).toMatchObject({
    params: { protocolVersion: '2025-11-25', clientInfo: { name: 'toolwire' }, capabilities: {} },
  });
  expect(initialize?.headers['mcp-protocol-version']).toBeUndefined();
  expect(initialize?.headers['mcp-session-id']).toBeUndefined();
  expect(initialize?.headers['accept']).toContain('text/event-stream');
  expect(posts(server, 'notifications/initialized')).toHaveLength(1);
});

test('connects on first use and only once for concurrent first calls', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  await Promise.all([client.listTools(), client.listPrompts(), client.listResources()]);
  expect(posts(server, 'initialize')).toHaveLength(1);
});

describe.each([
  ['2025-11-25', true],
  ['2025-06-18', true],
  ['2025-03-26', false],
  ['2024-11-05', false],
] as const)('a server that speaks only %s', (version, header) => {
  test(`is spoken to at ${version}, ${header ? 'with' : 'without'} the version header on every later request`, async () => {
    await using server = await startReferenceServer({ versions: [version] });
    const client = createMcpClient(server.url);
    await client.listTools();
    await client.callTool('echo', { text: 'hi' });
    expect(client.protocolVersion).toBe(version);
    await waitFor(() => requestsOf(server, 'GET').length > 0);
    await client.close();
    // After the handshake: neither the modern probe nor initialize itself.
    const later = server.log.filter(
      (entry) => !['initialize', 'server/discover'].includes(rpcBody(entry.body).method ?? ''),
    );
    expect(later.map((entry) => entry.httpMethod)).toEqual(
      expect.arrayContaining(['POST', 'GET', 'DELETE']),
    );
    for (const entry of later) {
      expect(entry.headers['mcp-protocol-version']).toBe(header ? version : undefined);
      expect(entry.sessionId).toBeDefined();
    }
  });
});

test('the offered revision can be pinned with the protocolVersion option', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { protocolVersion: '2025-06-18' });
  await client.connect();
  expect(client.protocolVersion).toBe('2025-06-18');
});

test('a server that answers with a revision the client does not speak fails with UnsupportedVersionError', async () => {
  await using server = await startReferenceServer({ versions: ['2024-10-07'] });
  await using client = createMcpClient(server.url);
  const error = await client.connect().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnsupportedVersionError);
  expect(error).toMatchObject({ offered: '2024-10-07', method: 'initialize' });
  // The session the server opened for the failed handshake is ended, not left behind.
  expect(requestsOf(server, 'DELETE')).toHaveLength(1);
});

test('the stateless endpoint works without a session id', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.stateless);
  expect((await client.callTool('echo', { text: 'no session' })).content).toEqual([
    { type: 'text', text: 'no session' },
  ]);
  await client.close();
  expect(server.log.every((entry) => entry.sessionId === undefined)).toBe(true);
  // No session was issued, so there is none to delete.
  expect(requestsOf(server, 'DELETE')).toHaveLength(0);
});
