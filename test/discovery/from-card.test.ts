/**
 * Clients made from what discovery finds: a templated remote with a secret header, filled by the
 * application, reaching a real server; a card that disagrees with its server (the server wins);
 * a registry entry, found through a local registry that answers in the published shapes.
 */
import {
  checkCard,
  createMcpClientFrom,
  DiscoveryError,
  type InputRequest,
  MissingInputError,
  type ServerCard,
  serverRegistry,
} from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { expect, test } from 'vitest';
import { startDomain } from './domain.ts';

test('a templated remote: the URL starts with a variable, the secret header is filled through the callback', async () => {
  await using server = await startReferenceServer();
  const { origin, pathname } = new URL(server.url);
  const card = {
    name: 'com.example/reference',
    version: '1.0.0',
    description: 'Reference',
    remotes: [
      { type: 'sse', url: `${origin}/sse` },
      {
        type: 'streamable-http',
        url: `{baseUrl}${pathname}`,
        variables: { baseUrl: { isRequired: true, description: 'Where it runs' } },
        headers: [
          {
            name: 'Authorization',
            isRequired: true,
            isSecret: true,
            value: 'Bearer {token}',
            variables: { token: { isRequired: true, isSecret: true } },
          },
          { name: 'X-Region', choices: ['eu', 'us'], default: 'eu' },
        ],
      },
    ],
  };
  const asked: InputRequest[] = [];
  await using client = await createMcpClientFrom(card, {
    inputs: (request) => {
      asked.push(request);
      return request.name === 'baseUrl'
        ? origin
        : request.name === 'token'
          ? 't0k-secret'
          : undefined;
    },
  });
  expect(await client.callTool('echo', { text: 'hi' })).toMatchObject({
    content: [{ type: 'text', text: 'hi' }],
  });
  expect(asked.map((r) => [r.key, r.spec.isSecret ?? false])).toEqual([
    ['variable:baseUrl', false],
    ['header:Authorization.token', true],
    ['header:X-Region', false],
  ]);
  const mcpRequests = server.log.filter((r) => r.path === pathname);
  expect(mcpRequests.length).toBeGreaterThan(0);
  expect(mcpRequests.every((r) => r.headers['authorization'] === 'Bearer t0k-secret')).toBe(true);
  expect(mcpRequests[0]!.headers['x-region']).toBe('eu');
  // Streamable HTTP was chosen over the SSE remote listed first.
  expect(server.log.some((r) => r.path === '/sse')).toBe(false);
});

test('a required secret nobody gives: a MissingInputError before anything is sent', async () => {
  await using server = await startReferenceServer();
  const error = await createMcpClientFrom(
    {
      name: 'com.example/reference',
      remotes: [
        {
          type: 'streamable-http',
          url: server.url,
          headers: [{ name: 'Authorization', isRequired: true, isSecret: true }],
        },
      ],
    },
    { inputs: {} },
  ).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MissingInputError);
  expect(error).toMatchObject({ input: 'header:Authorization' });
  expect(server.log).toEqual([]);
});

test('a card that disagrees with its server: the server wins, and the differences are reported', async () => {
  await using server = await startReferenceServer();
  const card: ServerCard = {
    name: 'toolwire-reference-server',
    version: '9.9.9',
    title: 'Not the real title',
    description: 'Claims',
    remotes: [
      { type: 'streamable-http', url: server.url, supportedProtocolVersions: ['2025-03-26'] },
    ],
  };
  await using client = await createMcpClientFrom(card, { protocolVersion: 'auto' });
  const differences = await checkCard(card, client);
  expect(client.serverInfo?.version).not.toBe('9.9.9');
  expect(differences).toContainEqual({
    field: 'version',
    card: '9.9.9',
    server: client.serverInfo!.version,
  });
  expect(differences.map((d) => d.field)).not.toContain('name');
  expect(differences).toContainEqual({
    field: 'protocolVersion',
    card: '2025-03-26',
    server: client.protocolVersion,
  });
  // The client still works: the card decided nothing.
  expect(await client.callTool('add', { a: 2, b: 3 })).toMatchObject({ isError: false });
});

test('the registry API v0.1: search (latest only), cursor pages, latest and a given version URL-encoded, a client from the entry', async () => {
  await using server = await startReferenceServer();
  await using registry = await startDomain();
  const entry = (version: string, isLatest: boolean) => ({
    server: {
      name: 'io.github.acme/weather',
      version,
      description: 'Weather',
      remotes: [{ type: 'streamable-http', url: server.url }],
    },
    _meta: {
      'io.modelcontextprotocol.registry/official': {
        status: 'active',
        isLatest,
        publishedAt: '2026-01-01T00:00:00Z',
      },
    },
  });
  registry.docs.set('/v0.1/servers?search=weather&version=latest', {
    body: {
      servers: [entry('1.1.0', true), { server: { nope: 1 } }],
      metadata: { nextCursor: 'c2', count: 2 },
    },
  });
  registry.docs.set('/v0.1/servers?search=weather&version=latest&cursor=c2', {
    body: { servers: [], metadata: {} },
  });
  registry.docs.set('/v0.1/servers/io.github.acme%2Fweather/versions/latest', {
    body: entry('1.1.0', true),
  });
  registry.docs.set('/v0.1/servers/io.github.acme%2Fweather/versions/1.0.0%2Bbuild.1', {
    body: entry('1.0.0+build.1', false),
  });

  const api = serverRegistry({ baseUrl: `${registry.origin}/` });
  const page = await api.search('weather');
  expect(page.servers.map((s) => [s.server.name, s.server.version, s.status, s.isLatest])).toEqual([
    ['io.github.acme/weather', '1.1.0', 'active', true],
  ]);
  expect(page).toMatchObject({ nextCursor: 'c2', malformed: 1 });
  expect(await api.search('weather', { cursor: page.nextCursor })).toEqual({
    servers: [],
    malformed: 0,
  });
  expect((await api.latest('io.github.acme/weather')).server.version).toBe('1.1.0');
  expect((await api.get('io.github.acme/weather', '1.0.0+build.1')).isLatest).toBe(false);
  const missing = await api.get('io.github.acme/nothing').catch((e: unknown) => e);
  expect(missing).toBeInstanceOf(DiscoveryError);
  await expect(
    serverRegistry({ baseUrl: 'https://r.example.com/v0.1' }).search('x'),
  ).rejects.toThrow(TypeError);

  await using client = await createMcpClientFrom(await api.latest('io.github.acme/weather'));
  expect(await client.callTool('echo', { text: 'from the registry' })).toMatchObject({
    content: [{ type: 'text', text: 'from the registry' }],
  });
});

test('a card from a stranger’s domain may not aim the client into the user network, nor send a secret in the clear', async () => {
  const base = { name: 'com.example/x', version: '1.0.0', description: 'x' };
  const fromDomain = (url: string) => ({
    ...base,
    source: 'https://cards.example.com/.well-known/mcp/server-card.json',
    remotes: [{ type: 'streamable-http', url }],
  });
  for (const url of [
    'http://169.254.169.254/mcp',
    'https://10.0.0.1/mcp',
    'http://api.example.net/mcp',
  ]) {
    const error = await createMcpClientFrom(fromDomain(url)).catch((e: unknown) => e);
    expect(error, url).toBeInstanceOf(DiscoveryError);
    expect((error as Error).message).toMatch(/remote is refused/);
  }
  // A secret header over plain http to another host: refused, and the secret is not in the error.
  const cleartext = {
    ...base,
    remotes: [
      {
        type: 'streamable-http',
        url: 'http://api.example.net/mcp',
        headers: [{ name: 'Authorization', isSecret: true, isRequired: true }],
      },
    ],
  };
  const error = await createMcpClientFrom(cleartext, { inputs: () => 'Bearer s3cret' }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DiscoveryError);
  expect((error as Error).message).toMatch(/in the clear/);
  expect(String(error)).not.toContain('s3cret');
});
