/**
 * Credentials on every request to the server's origin, whatever the dialect: POST, the GET stream,
 * DELETE, HTTP+SSE, MCP-lite and Webtools, against the reference server in protected mode (a
 * token check of its own here; the OAuth tests use a real authorization server). And the
 * protected mode itself, on the wire: 401 and 403 with the challenge the specification describes.
 */
import {
  AuthorizationError,
  createMcpClient,
  type DialectChoice,
  HttpStatusError,
} from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { expect, test } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';

const AS = 'https://auth.example.test';

function protectedServer(toolScopes?: Record<string, string[]>): Promise<ReferenceServer> {
  return startReferenceServer({
    dualEra: true,
    protect: {
      authorizationServers: [AS],
      scopesSupported: ['tools'],
      ...(toolScopes ? { toolScopes } : {}),
      verify: (token) => (token === 'good' ? { scopes: [] } : undefined),
    },
  });
}

/** Requests to the MCP endpoints (not the metadata), and whether each carried the token. */
function carried(server: ReferenceServer): Array<[string, string, boolean]> {
  return server.log
    .filter((entry) => !entry.path.startsWith('/.well-known/'))
    .map((entry) => [
      entry.httpMethod,
      entry.path,
      entry.headers['authorization'] === 'Bearer good',
    ]);
}

const dialects: Array<[string, (server: ReferenceServer) => string, DialectChoice]> = [
  ['stateful (POST, GET stream, DELETE)', (s) => s.url, 'mcp-stateful'],
  ['2026-07-28', (s) => s.urls.modern, 'mcp-stateless'],
  ['HTTP+SSE', (s) => s.urls.sse, 'mcp-sse'],
  ['MCP-lite', (s) => s.urls.mcpLite, 'mcp-lite'],
  ['Webtools', (s) => s.urls.webtools, 'webtools'],
];

test.each(dialects)('%s: every request carries the token', async (_name, urlOf, dialect) => {
  await using server = await protectedServer();
  const client = createMcpClient(urlOf(server), {
    auth: 'good',
    dialect,
    webtools: { config: { apiKey: 'key' } },
  });
  const tools = await client.listTools();
  await client.callTool(tools.some((t) => t.name === 'echo') ? 'echo' : tools[0]!.name, {
    text: 'x',
    city: 'Paris',
    location: 'Paris',
  });
  if (dialect === 'mcp-stateful') {
    await waitFor(() => server.log.some((entry) => entry.httpMethod === 'GET'));
  }
  await client.close();
  const requests = carried(server);
  expect(requests.length).toBeGreaterThan(1);
  expect(requests.filter(([, , ok]) => !ok)).toEqual([]);
  if (dialect === 'mcp-stateful') {
    expect(requests.map(([method]) => method)).toEqual(
      expect.arrayContaining(['POST', 'GET', 'DELETE']),
    );
  }
});

test('a token the server refuses is an AuthorizationError at once', async () => {
  await using server = await protectedServer();
  await using client = createMcpClient(server.url, { auth: 'bad' });
  const error = await client.listTools().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AuthorizationError);
  expect((error as AuthorizationError).reason).toBe('rejected');
  expect((error as AuthorizationError).status).toBe(401);
  expect(String(error)).not.toContain('bad');
});

test('a token function is asked before each request, and once more after a 401', async () => {
  await using server = await protectedServer();
  const given = ['expired', 'good'];
  let asked = 0;
  await using client = createMcpClient(server.urls.modern, {
    auth: () => given[Math.min(asked++, given.length - 1)]!,
  });
  await client.callTool('echo', { text: 'x' });
  // The refused first token, the fresh one for the same request, then one per request.
  const requests = carried(server);
  expect(requests[0]![2]).toBe(false);
  expect(requests.slice(1).every(([, , ok]) => ok)).toBe(true);
  expect(asked).toBe(requests.length);
});

test('a token function that throws is an AuthorizationError carrying what it threw', async () => {
  await using server = await protectedServer();
  const broken = new Error('vault is sealed');
  await using client = createMcpClient(server.urls.modern, {
    auth: () => {
      throw broken;
    },
  });
  const error = await client.listTools().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AuthorizationError);
  expect((error as AuthorizationError).reason).toBe('callback_failed');
  expect((error as AuthorizationError).cause).toBe(broken);
});

test('headers may be a function, asked per request; callTool headers go on that call only', async () => {
  await using server = await startReferenceServer();
  const seen: string[] = [];
  let n = 0;
  await using client = createMcpClient(server.urls.modern, {
    headers: async ({ method, url }) => {
      seen.push(`${method} ${new URL(url).pathname}`);
      return { 'x-request': String(++n) };
    },
  });
  await client.callTool('echo', { text: 'x' }, { headers: { 'x-call': 'mine' } });
  await client.callTool('echo', { text: 'y' });
  const posts = server.log.filter((entry) => entry.httpMethod === 'POST');
  expect(posts.map((entry) => entry.headers['x-request'])).toEqual(
    posts.map((_, i) => String(i + 1)),
  );
  const withCall = posts.filter((entry) => entry.headers['x-call'] === 'mine');
  expect(withCall).toHaveLength(1);
  expect((withCall[0]!.body as { method: string }).method).toBe('tools/call');
  expect(seen.every((line) => line === 'POST /mcp-modern')).toBe(true);
});

test.each([
  ['2025-11-25', 'legacy'],
  ['2026-07-28', 'modern'],
] as const)(
  'protected mode at %s: 401 names the metadata, 403 the missing scope',
  async (_v, era) => {
    await using server = await protectedServer({ add: ['tools:write'] });
    const url = era === 'modern' ? server.urls.modern : server.url;
    const path = new URL(url).pathname;
    const bare = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    expect(bare.status).toBe(401);
    const challenge = bare.headers.get('www-authenticate');
    const origin = new URL(url).origin;
    expect(challenge).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource${path}"`,
    );
    const metadata = await (
      await fetch(`${origin}/.well-known/oauth-protected-resource${path}`)
    ).json();
    expect(metadata).toEqual({
      resource: url,
      authorization_servers: [AS],
      bearer_methods_supported: ['header'],
      scopes_supported: ['tools'],
    });
    // With a good token but not the tool's scope: 403 insufficient_scope, through the client.
    await using client = createMcpClient(url, { auth: 'good', protocolVersion: era });
    const error = await client.callTool('add', { a: 1, b: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).reason).toBe('insufficient_scope');
    expect((error as AuthorizationError).status).toBe(403);
    expect(await client.callTool('echo', { text: 'ok' })).toMatchObject({ isError: false });
  },
);

test('without auth, a protected server says it wants credentials; the 401 is the cause', async () => {
  await using server = await protectedServer();
  await using client = createMcpClient(server.urls.modern);
  const error = await client.listTools().catch((e: unknown) => e);
  expect(error).toMatchObject({ reason: 'credentials_required', status: 401, scheme: 'Bearer' });
  expect((error as Error).cause).toBeInstanceOf(HttpStatusError);
  expect(((error as Error).cause as HttpStatusError).status).toBe(401);
});
