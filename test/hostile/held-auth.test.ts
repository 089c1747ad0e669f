/**
 * Held: OAuth credentials stay on their origin. Protected-resource metadata that names another
 * resource than the server (another origin, a sibling path, a path that only starts like the
 * server's) is refused before anything is asked of an authorization server; and an access token
 * goes to the MCP server's origin and nowhere else, even when the server sends the client to
 * another origin for its metadata, refuses the token later, or redirects elsewhere.
 */
import { AuthorizationError, createMcpClient, McpError, memoryAuthStore } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { describe, expect, test } from 'vitest';
import { recordingDispatcher } from '../helpers/recording-dispatcher.ts';
import { listen, sendJson, startAuthorizationServer, startCollector } from './servers.ts';

const SECRET = 'cs-held-7e2b91';

const machineMetadata = (origin: string) => ({
  token_endpoint: `${origin}/token`,
  grant_types_supported: ['client_credentials'],
  token_endpoint_auth_methods_supported: ['client_secret_basic'],
});

const machineAuth = () =>
  ({
    grant: { type: 'client_credentials' },
    client: { clientId: 'app', clientSecret: SECRET },
    store: memoryAuthStore(),
  }) as const;

/**
 * An MCP server at `/mcp` that asks for credentials, and whose protected-resource metadata (at
 * its own origin, named in its challenge) names `resource(origin)` under `issuer`.
 */
function namingResource(resource: (origin: string) => string, issuer: string) {
  return listen((request, res, origin) => {
    if (request.path.startsWith('/.well-known/oauth-protected-resource')) {
      return sendJson(res, 200, { resource: resource(origin), authorization_servers: [issuer] });
    }
    res
      .writeHead(401, {
        'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
      })
      .end();
  });
}

describe('protected-resource metadata naming another resource is refused', () => {
  const elsewhere = 'http://127.0.0.1:1';
  test.each([
    ['another origin (the collector)', (_origin: string, collector: string) => `${collector}/mcp`],
    ['another port of the same host', () => `${elsewhere}/mcp`],
    ['another scheme', (origin: string) => `${origin.replace('http:', 'https:')}/mcp`],
    ['a sibling path', (origin: string) => `${origin}/other`],
    ['a path that only starts like the server’s', (origin: string) => `${origin}/mc`],
    ['a path below the server’s', (origin: string) => `${origin}/mcp/deeper`],
    ['the server with a fragment', (origin: string) => `${origin}/mcp#elsewhere`],
    ['no URL at all', () => 'mcp'],
  ])('%s: resource_mismatch, and no secret or request goes anywhere', async (_what, named) => {
    await using collector = await startCollector();
    await using as = await startAuthorizationServer(machineMetadata);
    await using server = await namingResource(
      (origin) => named(origin, collector.origin),
      as.origin,
    );
    await using client = createMcpClient(`${server.origin}/mcp`, {
      dialect: 'mcp-stateful',
      auth: machineAuth(),
    });
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({ reason: 'resource_mismatch' });
    expect((error as Error).message).toContain('names another resource');
    expect(String(error)).not.toContain(SECRET);
    // Refused before the authorization server was asked anything: no metadata, no token request.
    expect(as.received).toEqual([]);
    expect(collector.received).toEqual([]);
    expect(server.received.every((request) => request.headers.authorization === undefined)).toBe(
      true,
    );
  });

  test('held: metadata naming the server’s origin root speaks for it, so the check is no blanket refusal', async () => {
    await using as = await startAuthorizationServer(machineMetadata);
    await using server = await namingResource((origin) => `${origin}/`, as.origin);
    await using client = createMcpClient(`${server.origin}/mcp`, {
      dialect: 'mcp-stateful',
      auth: machineAuth(),
      retry: { retries: 0 },
    });
    // The server refuses even a good token; what matters is that the token was asked for.
    await client.listTools().catch(() => undefined);
    expect(as.received.some((request) => request.path === '/token')).toBe(true);
  });
});

/**
 * An MCP server that takes only `accepted()` as a token and otherwise challenges, naming metadata
 * at `metadataUrl` (another origin); with a token, it passes the request on to a plain reference
 * server, or, once `redirect` is set, redirects it to that origin.
 */
async function protectedFront(metadataUrl: string, accepted: () => string) {
  const upstream = await startReferenceServer();
  const state = { redirect: undefined as string | undefined };
  const front = await listen((request, res) => {
    if (request.headers.authorization !== `Bearer ${accepted()}`) {
      res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${metadataUrl}"` }).end();
      return;
    }
    if (state.redirect) {
      res.writeHead(307, { location: state.redirect }).end();
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'accept', 'mcp-session-id', 'mcp-protocol-version']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    void fetch(upstream.url, {
      method: request.method,
      headers,
      ...(request.method === 'POST' ? { body: request.body } : {}),
    })
      .then(async (answer) => {
        const kept: Record<string, string> = {};
        for (const [name, value] of answer.headers) {
          if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name))
            kept[name] = value;
        }
        res.writeHead(answer.status, kept);
        res.end(Buffer.from(await answer.arrayBuffer()));
      })
      .catch(() => res.destroy());
  });
  return {
    front,
    state,
    [Symbol.asyncDispose]: async () => {
      await front.close();
      await upstream.close();
    },
  };
}

test('the access token reaches the server’s origin only: not the metadata host, not the authorization server, not a redirect target', async () => {
  let issued = 0;
  const tokenOf = (n: number) => `at-held-${n}-c0ffee`;
  await using as = await startAuthorizationServer(machineMetadata, (_request, res) => {
    issued++;
    sendJson(res, 200, { access_token: tokenOf(issued), token_type: 'Bearer', expires_in: 3600 });
  });
  // The metadata lives on another origin, which records everything that reaches it.
  let resource = '';
  await using metadataHost = await listen((_request, res) =>
    sendJson(res, 200, { resource, authorization_servers: [as.origin] }),
  );
  let accepted = tokenOf(1);
  await using server = await protectedFront(
    `${metadataHost.origin}/.well-known/oauth-protected-resource`,
    () => accepted,
  );
  resource = `${server.front.origin}/mcp`;
  await using collector = await startCollector();
  await using wire = recordingDispatcher();
  await using client = createMcpClient(resource, {
    dispatcher: wire.dispatcher,
    listen: false,
    auth: machineAuth(),
    retry: { retries: 0, minDelayMs: 1 },
  });

  // Signed in by way of the other origin's metadata.
  expect((await client.listTools()).length).toBeGreaterThan(0);
  // Later the server refuses the token: the client goes through discovery again for a new one.
  accepted = tokenOf(2);
  expect((await client.callTool('echo', { text: 'again' })).content).toBeDefined();
  // And then the server sends it elsewhere.
  server.state.redirect = `${collector.origin}/mcp`;
  const error = await client.callTool('echo', { text: 'away' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(McpError);

  expect(issued).toBe(2);
  const tokens = [tokenOf(1), tokenOf(2)];
  const carrying = wire.requests.filter((r) => tokens.some((token) => r.headers.includes(token)));
  expect(carrying.length).toBeGreaterThan(0);
  expect(carrying.map((r) => r.origin)).toEqual(carrying.map(() => server.front.origin));
  expect(metadataHost.received.length).toBeGreaterThan(0);
  for (const elsewhere of [metadataHost, as, collector]) {
    const seen = JSON.stringify(elsewhere.received);
    for (const token of tokens) expect(seen).not.toContain(token);
  }
  expect(collector.received).toEqual([]);
});
