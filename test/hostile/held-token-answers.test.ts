/**
 * Held: an authorization server that answers a token request badly (a page, a wrong shape, an
 * error, a huge or cut-off body, a redirect) and echoes what it received in the answer (the client
 * secret, the Authorization header, the code and its verifier, the refresh token) never gets
 * those credentials into what the client throws: not its message, not its causes, not its
 * fields, not what `console.log` would print. Each bad answer, for each grant that sends them.
 */
import { inspect } from 'node:util';
import {
  type AuthStore,
  authKeys,
  type ClientOptions,
  createMcpClient,
  McpError,
  type TokenRecord,
} from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type Listening,
  type Received,
  sendJson,
  startAuthorizationServer,
  type TokenAnswer,
} from './servers.ts';

const CLIENT_ID = 'app';
const SECRET = 'cs-4f8a2b9d31';
const REFRESH = 'rt-91c3d7a2e4';
const CODE = 'code-5e6f70a1b2';
const BASIC = Buffer.from(`${CLIENT_ID}:${SECRET}`).toString('base64');
const REDIRECT = 'http://127.0.0.1:1/callback';
/** The response bound the clients are given: the huge answer goes well past it. */
const BOUND = 64 * 1024;

/** What the authorization server received, as text: every credential the request carried. */
const echo = (request: Received) =>
  JSON.stringify({ headers: request.headers, body: request.body });

const raw =
  (status: number, type: string, text: (request: Received) => string): TokenAnswer =>
  (request, res) => {
    res.writeHead(status, { 'content-type': type }).end(text(request));
  };

const json =
  (status: number, body: (request: Received) => unknown): TokenAnswer =>
  (request, res) =>
    sendJson(res, status, body(request));

/** The bad answers, each with the request echoed somewhere in it. */
const answers: [string, TokenAnswer][] = [
  [
    'an HTML page with status 200',
    raw(200, 'text/html', (r) => `<html><body><pre>${echo(r)}</pre></body></html>`),
  ],
  [
    'JSON without access_token',
    json(200, (r) => ({ token_type: 'Bearer', expires_in: 3600, received: echo(r) })),
  ],
  ['token_type missing', json(200, (r) => ({ access_token: 'good', received: echo(r) }))],
  [
    'an odd token_type holding the request',
    json(200, (r) => ({ access_token: 'good', token_type: `MAC ${echo(r)}` })),
  ],
  [
    'access_token that is not a string',
    json(200, (r) => ({ access_token: { received: echo(r) }, token_type: 'Bearer' })),
  ],
  [
    'expires_in as a string holding the request',
    json(200, (r) => ({ access_token: 'good', token_type: 'Bearer', expires_in: echo(r) })),
  ],
  ['a 500 echoing the request as text', raw(500, 'text/plain', echo)],
  [
    'a 500 echoing the request as JSON',
    json(500, (r) => ({ error: 'server_error', received: echo(r) })),
  ],
  [
    'an error_description holding the request',
    json(400, (r) => ({ error: 'invalid_request', error_description: echo(r) })),
  ],
  ['an error code holding the request', json(400, (r) => ({ error: echo(r) }))],
  [
    'a 400 invalid_grant naming what it got',
    json(400, (r) => ({
      error: 'invalid_grant',
      error_description: `refresh token or code not valid: ${r.body}`,
    })),
  ],
  [
    'a 401 invalid_client echoing the Authorization header',
    (request, res) => {
      const authorization = String(request.headers.authorization);
      res
        .writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': `Basic realm="${authorization}", error_description="${request.body}"`,
        })
        .end(
          JSON.stringify({
            error: 'invalid_client',
            error_description: `bad credentials: ${authorization} ${request.body}`,
          }),
        );
    },
  ],
  [
    'a 401 whose Bearer challenge describes the request',
    (request, res) => {
      res
        .writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': `Bearer error="invalid_client", error_description="${encodeURIComponent(echo(request))}"`,
        })
        .end(JSON.stringify({ error: 'invalid_client', error_description: echo(request) }));
    },
  ],
  [
    'a body over the response bound',
    raw(200, 'application/json', (r) => {
      const filler = echo(r).replace(/"/g, "'");
      return `{"access_token":"${filler.repeat(Math.ceil((4 * BOUND) / filler.length))}"}`;
    }),
  ],
  [
    'a redirect carrying the request',
    (request, res) => {
      res
        .writeHead(302, {
          location: `http://127.0.0.1:1/steal?q=${encodeURIComponent(echo(request))}`,
        })
        .end(echo(request));
    },
  ],
  [
    'a form-encoded body (not JSON)',
    raw(
      200,
      'application/x-www-form-urlencoded',
      (r) => `access_token=good&token_type=bearer&received=${encodeURIComponent(echo(r))}`,
    ),
  ],
  ['a JSON array', json(200, (r) => [{ access_token: 'good', received: echo(r) }])],
  ['null', raw(200, 'application/json', () => 'null')],
  ['invalid JSON', raw(200, 'application/json', (r) => `{"access_token": ${echo(r)}`)],
  ['an empty 200', raw(200, 'application/json', () => '')],
  [
    'a body cut off midway',
    (request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"access_token":"good","received":${JSON.stringify(echo(request))}`);
      setTimeout(() => res.destroy(), 20);
    },
  ],
];

/** A good answer, with a refresh token: what the refresh case starts from. */
const good: TokenAnswer = (_request, res) =>
  sendJson(res, 200, {
    access_token: 'good',
    token_type: 'Bearer',
    expires_in: 3600,
    refresh_token: REFRESH,
  });

let answer: TokenAnswer = good;
let as: Listening;
let server: ReferenceServer;

beforeAll(async () => {
  as = await startAuthorizationServer(
    (origin) => ({
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    }),
    (request, res, origin) => answer(request, res, origin),
  );
  server = await startReferenceServer({
    dualEra: true,
    protect: {
      authorizationServers: [as.origin],
      verify: (token) => (token === 'good' ? { scopes: [] } : undefined),
    },
  });
});
afterAll(async () => {
  await server?.close();
  await as?.close();
});

/** A store whose keys a test can look through. */
function mapStore(): AuthStore & { map: Map<string, Record<string, unknown>> } {
  const map = new Map<string, Record<string, unknown>>();
  return {
    map,
    get: (key) => map.get(key) as never,
    set: (key, value) => void map.set(key, structuredClone(value)),
    delete: (key) => void map.delete(key),
  };
}

type Grant = (store: AuthStore) => Promise<NonNullable<ClientOptions['auth']>>;

const clientCredentials =
  (method: 'client_secret_basic' | 'client_secret_post'): Grant =>
  async (store) => ({
    grant: { type: 'client_credentials' },
    client: { clientId: CLIENT_ID, clientSecret: SECRET, authMethod: method },
    store,
  });

const grants: [string, Grant][] = [
  [
    'client_credentials, secret in the Authorization header',
    clientCredentials('client_secret_basic'),
  ],
  ['client_credentials, secret in the body', clientCredentials('client_secret_post')],
  [
    'a refresh of an expired access token',
    async (store) => {
      const auth = await clientCredentials('client_secret_basic')(store);
      // Signed in once, with a refresh token; later, the access token has expired.
      answer = good;
      {
        await using first = createMcpClient(server.url, { auth });
        await first.listTools();
      }
      const key = authKeys.tokens(as.origin, server.url);
      const tokens = (await store.get(key)) as TokenRecord | undefined;
      expect(tokens?.refreshToken).toBe(REFRESH);
      await store.set(key, { ...tokens!, accessToken: 'expired', expiresAt: Date.now() - 60_000 });
      return auth;
    },
  ],
  [
    'an authorization code with PKCE',
    async (store) => ({
      client: { clientId: CLIENT_ID, clientSecret: SECRET, authMethod: 'client_secret_basic' },
      redirectUri: REDIRECT,
      authorize: async (url: URL) =>
        `${REDIRECT}?code=${CODE}&state=${url.searchParams.get('state') ?? ''}`,
      store,
    }),
  ],
];

/** Everything an error says where a log or a user could see it, causes included. */
function everythingSaid(error: unknown): string {
  const parts: string[] = [inspect(error, { depth: Number.POSITIVE_INFINITY })];
  const seen = new Set<unknown>();
  const walk = (value: unknown) => {
    if (seen.has(value) || seen.size > 50) return;
    seen.add(value);
    parts.push(String(value));
    if (typeof value !== 'object' || value === null) return;
    if (value instanceof Error) parts.push(value.message, value.stack ?? '');
    try {
      parts.push(JSON.stringify(value));
    } catch {
      // A cycle or a BigInt: the fields are looked at one by one below.
    }
    for (const [name, field] of Object.entries(value)) {
      parts.push(name);
      walk(field);
    }
    walk((value as { cause?: unknown }).cause);
    const errors = (value as { errors?: unknown }).errors;
    if (Array.isArray(errors)) for (const each of errors) walk(each);
  };
  walk(error);
  return parts.join('\n');
}

describe.each(grants)('with %s', (_grant, setUp) => {
  test.each(answers)('%s: a typed failure that holds no credential', async (_what, bad) => {
    const store = mapStore();
    const auth = await setUp(store);
    const before = as.received.length;
    answer = bad;
    await using client = createMcpClient(server.url, {
      auth,
      maxResponseBytes: BOUND,
      retry: { retries: 0, minDelayMs: 1 },
    });
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    const tokenRequests = as.received.slice(before).filter((r) => r.path === '/token');
    // The bad answer was to a request that carried the credentials it echoes.
    expect(tokenRequests.length).toBeGreaterThan(0);
    const sent = tokenRequests.map(echo).join('\n');
    const verifiers = tokenRequests
      .map((r) => new URLSearchParams(r.body).get('code_verifier'))
      .filter((v): v is string => v !== null);
    const credentials = [SECRET, BASIC, REFRESH, CODE, ...verifiers];
    // Only those the request did carry can be echoed; at least one of them always is.
    expect(credentials.some((credential) => sent.includes(credential))).toBe(true);
    const said = everythingSaid(error);
    for (const credential of credentials) {
      expect(said, `${(error as Error).name}: ${(error as Error).message}`).not.toContain(
        credential,
      );
    }
  });
});
