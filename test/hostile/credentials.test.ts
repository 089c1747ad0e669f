/**
 * A hostile server aims the user's credentials elsewhere: an HTTP+SSE endpoint event naming
 * another origin (finding 1), a redirect to one (held), a second authorization server for a
 * pre-registered client's secret (finding 5), and protected-resource or authorization-server URLs
 * aimed at plain HTTP or the user's own network (finding 7). Against the built client and CLI.
 */
import { AuthorizationError, createMcpClient, McpError, memoryAuthStore } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { describe, expect, test } from 'vitest';
import { recordingDispatcher } from '../helpers/recording-dispatcher.ts';
import { toolwire } from '../helpers/toolwire.ts';
import {
  listen,
  sendJson,
  startAuthorizationServer,
  startCollector,
  startSseServer,
} from './servers.ts';

const SECRET = 's3cret-api-key';

/** Every way an application gives headers, each carrying the secret. */
const headerWays = [
  ['static headers', { headers: { 'x-api-key': SECRET } }, undefined],
  ['a headers function', { headers: () => ({ 'x-api-key': SECRET }) }, undefined],
  ['per-call headers', {}, { 'x-api-key': SECRET }],
  ['an auth token', { auth: SECRET }, undefined],
] as const;

describe('finding 1: an HTTP+SSE endpoint on another origin', () => {
  test.each(headerWays)(
    'with %s, the endpoint is refused, typed, naming both origins, and nothing reaches it',
    async (_way, options, perCall) => {
      await using collector = await startCollector();
      await using server = await startSseServer(`${collector.origin}/messages?session=1`);
      for (const dialect of ['mcp-sse', undefined] as const) {
        await using client = createMcpClient(`${server.origin}/sse`, {
          ...options,
          ...(dialect ? { dialect } : {}),
          retry: { minDelayMs: 1 },
          // Without the check, the call would wait for an answer the stream never brings.
          timeoutMs: 2_000,
        });
        const error = await client
          .callTool('echo', {}, perCall ? { headers: perCall } : {})
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(McpError);
        const found = [error, (error as Error).cause].find((e) =>
          /endpoint event names another origin/.test(String((e as Error)?.message)),
        );
        expect(found, String(error)).toBeDefined();
        expect((found as Error).message).toContain(collector.origin);
        expect((found as Error).message).toContain(server.origin);
        expect(String(error)).not.toContain(SECRET);
      }
      expect(collector.received).toEqual([]);
      // The server itself got the secret, as it was given for it: only the other origin must not.
      expect(server.received.length).toBeGreaterThan(0);
    },
  );

  test('the CLI with -H: the same refusal, nothing reaches the other origin, no secret printed', async () => {
    await using collector = await startCollector();
    await using server = await startSseServer(`${collector.origin}/messages`);
    const run = await toolwire([
      'inspect',
      `${server.origin}/sse`,
      '-H',
      `Authorization: Bearer ${SECRET}`,
      '--timeout',
      '2000',
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(collector.origin);
    expect(run.stdout + run.stderr).not.toContain(SECRET);
    expect(collector.received).toEqual([]);
  });
});

describe('held: a redirect to another origin is never followed', () => {
  test.each(headerWays)('with %s', async (_way, options, perCall) => {
    await using collector = await startCollector();
    await using server = await listen((_request, res) => {
      res.writeHead(307, { location: `${collector.origin}/mcp` }).end();
    });
    await using client = createMcpClient(`${server.origin}/mcp`, {
      ...options,
      retry: { minDelayMs: 1 },
    });
    const error = await client
      .callTool('echo', {}, perCall ? { headers: perCall } : {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(String(error)).not.toContain(SECRET);
    expect(collector.received).toEqual([]);
  });
});

/** Two MCP servers, each protected by an authorization server of its own choosing. */
async function protectedBy(issuer: string) {
  return startReferenceServer({
    dualEra: true,
    protect: {
      authorizationServers: [issuer],
      verify: (token) => (token === 'good' ? { scopes: [] } : undefined),
    },
  });
}

const machineMetadata = (origin: string) => ({
  token_endpoint: `${origin}/token`,
  grant_types_supported: ['client_credentials'],
  token_endpoint_auth_methods_supported: ['client_secret_basic'],
});

/** Whether any request the server received carried the client secret, in a header or a body. */
function sawSecret(server: { received: { headers: object; body: string }[] }): boolean {
  return server.received.some((request) => {
    const basic = Buffer.from(`app:${SECRET}`).toString('base64');
    const text = JSON.stringify(request.headers) + request.body;
    return text.includes(SECRET) || text.includes(basic);
  });
}

describe('finding 5: a pre-registered client secret without its issuer', () => {
  test('goes to the first issuer it is used with, and never to the one a second server names', async () => {
    await using first = await startAuthorizationServer(machineMetadata);
    await using second = await startAuthorizationServer(machineMetadata);
    await using serverA = await protectedBy(first.origin);
    await using serverB = await protectedBy(second.origin);
    const store = memoryAuthStore();
    const auth = {
      grant: { type: 'client_credentials' },
      client: { clientId: 'app', clientSecret: SECRET },
      store,
    } as const;

    await using a = createMcpClient(serverA.url, { auth });
    expect((await a.listTools()).length).toBeGreaterThan(0);
    expect(sawSecret(first)).toBe(true);

    await using b = createMcpClient(serverB.url, { auth });
    const error = await b.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({ reason: 'issuer_mismatch' });
    expect((error as Error).message).toContain(first.origin);
    expect((error as Error).message).toContain(second.origin);
    expect(String(error)).not.toContain(SECRET);
    expect(sawSecret(second)).toBe(false);
  });

  test('held: with its issuer named, it goes to that issuer only', async () => {
    await using named = await startAuthorizationServer(machineMetadata);
    await using other = await startAuthorizationServer(machineMetadata);
    await using server = await protectedBy(other.origin);
    await using client = createMcpClient(server.url, {
      auth: {
        grant: { type: 'client_credentials' },
        client: { clientId: 'app', clientSecret: SECRET, issuer: named.origin },
        store: memoryAuthStore(),
      },
    });
    await expect(client.listTools()).rejects.toBeInstanceOf(AuthorizationError);
    expect(sawSecret(other)).toBe(false);
  });
});

/** An MCP server that asks for credentials, naming `resourceMetadata` in its challenge. */
function challenging(resourceMetadata: (origin: string) => string) {
  return listen((request, res, origin) => {
    if (request.path.startsWith('/.well-known/oauth-protected-resource')) {
      sendJson(res, 200, {
        resource: `${origin.replace('127.0.0.1', 'mcp.test')}/mcp`,
        authorization_servers: ['http://192.168.1.1'],
      });
      return;
    }
    res
      .writeHead(401, {
        'www-authenticate': `Bearer resource_metadata="${resourceMetadata(origin)}"`,
      })
      .end();
  });
}

describe('finding 7: discovery reaches only https:, loopback, and never into the user network', () => {
  test.each([
    ['plain http to another host', () => 'http://metadata.attacker.example/x'],
    ['a link-local address', () => 'https://169.254.169.254/latest/meta-data/'],
    ['a private address', () => 'https://10.0.0.1/.well-known/oauth-protected-resource'],
    ['an IPv4-mapped private address', () => 'https://[::ffff:192.168.0.1]/'],
    ['another scheme', () => 'file:///etc/passwd'],
  ])('resource_metadata at %s is refused, typed, and never fetched', async (_what, named) => {
    await using server = await challenging(named);
    await using wire = recordingDispatcher({ named: 'mcp.test' });
    const url = `${server.origin.replace('127.0.0.1', 'mcp.test')}/mcp`;
    await using client = createMcpClient(url, {
      dialect: 'mcp-stateful',
      dispatcher: wire.dispatcher,
      auth: { grant: { type: 'client_credentials' }, client: { clientId: 'app' } },
    });
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({ reason: 'discovery' });
    expect((error as Error).message).toMatch(/refused the resource_metadata/);
    const target = new URL(named()).origin;
    expect(wire.origins.filter((origin) => origin === target)).toEqual([]);
    expect(wire.origins.every((origin) => origin.startsWith('http://mcp.test:'))).toBe(true);
  });

  test('an authorization server on a private address, named by a remote server, is refused', async () => {
    await using server = await challenging(
      (origin) => `${origin.replace('127.0.0.1', 'mcp.test')}/.well-known/oauth-protected-resource`,
    );
    await using wire = recordingDispatcher({ named: 'mcp.test' });
    const url = `${server.origin.replace('127.0.0.1', 'mcp.test')}/mcp`;
    await using client = createMcpClient(url, {
      dialect: 'mcp-stateful',
      dispatcher: wire.dispatcher,
      auth: { grant: { type: 'client_credentials' }, client: { clientId: 'app' } },
    });
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'AUTHORIZATION', reason: 'discovery' });
    expect((error as Error).message).toMatch(/authorization server http:\/\/192\.168\.1\.1/);
    expect(wire.origins.some((origin) => origin.includes('192.168.1.1'))).toBe(false);
  });
});
