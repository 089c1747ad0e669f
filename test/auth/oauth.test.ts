/**
 * OAuth 2.1 against a real authorization server (oidc-provider) and the reference server in
 * protected mode: the whole interactive flow from a bare 401, refresh, a revoked refresh token,
 * step-up, one refresh for many calls, a second client that needs no authorization server, and
 * close() while a user is still at the authorization page.
 */
import {
  AuthorizationError,
  type AuthStore,
  authKeys,
  ClientClosedError,
  createMcpClient,
  loopbackAuthorization,
  memoryAuthStore,
  type OAuthOptions,
  type TokenRecord,
} from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { expect, test, vi } from 'vitest';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../helpers/authorization-server.ts';
import { handles, settledHandles } from '../helpers/handles.ts';
import { waitFor } from '../helpers/wait-for.ts';

const REDIRECT = 'http://127.0.0.1:8976/callback';

async function setup(protect: { scopes?: string[]; toolScopes?: Record<string, string[]> } = {}) {
  const as = await startAuthorizationServer();
  const server = await startReferenceServer({
    protect: {
      authorizationServers: [as.issuer],
      scopesSupported: ['mcp:read', 'mcp:write'],
      ...protect,
    },
  });
  const store = memoryAuthStore();
  const auth: OAuthOptions = { authorize: as.user.authorize, redirectUri: REDIRECT, store };
  return {
    as,
    server,
    store,
    auth,
    async [Symbol.asyncDispose]() {
      await server.close();
      await as.close();
    },
  };
}

function claims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

async function storedTokens(store: AuthStore, as: AuthorizationServer, resource: string) {
  return (await store.get(authKeys.tokens(as.issuer, resource))) as TokenRecord | undefined;
}

test('a bare 401 leads to discovery, registration, code + PKCE through authorize, and the call', async () => {
  await using world = await setup();
  const { as, server, store, auth } = world;
  await using client = createMcpClient(server.url, { auth });
  const result = await client.callTool('echo', { text: 'authorized' });
  expect(result.content).toEqual([{ type: 'text', text: 'authorized' }]);

  // The first request went without a token and was refused; discovery found the server's metadata.
  expect(server.log[0]!.headers['authorization']).toBeUndefined();
  expect(
    server.log.some((entry) => entry.path === '/.well-known/oauth-protected-resource/mcp'),
  ).toBe(true);
  // Dynamic registration as a native app that wants refresh tokens.
  expect(as.registrations).toHaveLength(1);
  expect(as.registrations[0]).toMatchObject({
    application_type: 'native',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
  });
  // The authorization request: PKCE S256, the resource, the scopes the server supports.
  const [authorization] = as.user.authorizations;
  expect(authorization!.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization!.searchParams.get('resource')).toBe(server.url);
  expect(authorization!.searchParams.get('scope')).toBe('mcp:read mcp:write offline_access');
  expect(as.tokenRequests.map((r) => [r.grantType, r.resource])).toEqual([
    ['authorization_code', server.url],
  ]);
  // The access token is a JWT of this authorization server whose audience is the MCP server.
  const tokens = await storedTokens(store, as, server.url);
  expect(claims(tokens!.accessToken)).toMatchObject({ iss: as.issuer, aud: server.url });
  expect(tokens!.refreshToken).toBeTypeOf('string');
  // Every request after the refusal carried the token.
  const after = server.log.slice(server.log.findIndex((e) => e.headers['authorization']));
  expect(
    after.every(
      (e) =>
        e.path.startsWith('/.well-known') ||
        e.headers['authorization'] === `Bearer ${tokens!.accessToken}`,
    ),
  ).toBe(true);
});

test('ten concurrent calls on an expired token make exactly one token request, and all succeed', async () => {
  await using world = await setup();
  const { as, server, store, auth } = world;
  await using client = createMcpClient(server.url, { auth });
  await client.callTool('echo', { text: 'first' });
  const tokens = (await storedTokens(store, as, server.url))!;
  const before = as.tokenRequests.length;
  // An hour later (the clock alone: timers and sockets run as ever), the token has expired.
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(Date.now() + 3_600_000);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.callTool('echo', { text: `call ${i}` })),
    );
    expect(results.map((r) => r.content[0])).toEqual(
      Array.from({ length: 10 }, (_, i) => ({ type: 'text', text: `call ${i}` })),
    );
  } finally {
    vi.useRealTimers();
  }
  const made = as.tokenRequests.slice(before);
  expect(made.map((r) => r.grantType)).toEqual(['refresh_token']);
  expect(made[0]!.refreshToken).toBe(tokens.refreshToken);
  // The session outlived the new token: one initialize in all.
  const initializes = server.log.filter(
    (e) => (e.body as { method?: string })?.method === 'initialize',
  );
  expect(initializes).toHaveLength(1);
  // The refresh token rotated, and was spent once: the user was asked once, at the start.
  const renewed = (await storedTokens(store, as, server.url))!;
  expect(renewed.refreshToken).not.toBe(tokens.refreshToken);
  expect(as.user.authorizations).toHaveLength(1);
});

test('a revoked refresh token falls back to one new authorization', async () => {
  await using world = await setup();
  const { as, server, store, auth } = world;
  await using client = createMcpClient(server.url, { auth });
  await client.callTool('echo', { text: 'first' });
  await as.revokeRefreshTokens();
  const tokens = (await storedTokens(store, as, server.url))!;
  await store.set(authKeys.tokens(as.issuer, server.url), {
    ...tokens,
    expiresAt: Date.now() - 1_000,
  });

  await using next = createMcpClient(server.url, { auth });
  await next.callTool('echo', { text: 'again' });
  expect(as.tokenRequests.map((r) => r.grantType)).toEqual([
    'authorization_code',
    'refresh_token',
    'authorization_code',
  ]);
  expect(as.user.authorizations).toHaveLength(2);
});

test('a revoked refresh token and a user who then declines is an AuthorizationError, with no loop', async () => {
  await using world = await setup();
  const { as, server, store, auth } = world;
  await using client = createMcpClient(server.url, { auth });
  await client.callTool('echo', { text: 'first' });
  await as.revokeRefreshTokens();
  const tokens = (await storedTokens(store, as, server.url))!;
  await store.set(authKeys.tokens(as.issuer, server.url), {
    ...tokens,
    expiresAt: Date.now() - 1_000,
  });
  let asked = 0;
  const declining: OAuthOptions = {
    ...auth,
    authorize: async (url) => {
      asked++;
      const redirect = new URL(REDIRECT);
      redirect.searchParams.set('error', 'access_denied');
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
      redirect.searchParams.set('iss', as.issuer);
      return redirect;
    },
  };
  await using next = createMcpClient(server.url, { auth: declining });
  const error = await next.callTool('echo', { text: 'again' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AuthorizationError);
  expect((error as AuthorizationError).reason).toBe('denied');
  expect((error as AuthorizationError).oauthError).toBe('access_denied');
  expect(asked).toBe(1);
  expect(JSON.stringify(error)).not.toContain(tokens.accessToken);
  expect(String((error as Error).message)).not.toContain(tokens.refreshToken!);
});

test('step-up: a 403 insufficient_scope leads to a new authorization for the union of scopes', async () => {
  await using world = await setup({ scopes: ['mcp:read'], toolScopes: { add: ['mcp:write'] } });
  const { as, server } = world;
  await using client = createMcpClient(server.url, { auth: world.auth });
  await client.callTool('echo', { text: 'read only' });
  expect(as.user.authorizations[0]!.searchParams.get('scope')).toBe('mcp:read offline_access');
  const sum = await client.callTool('add', { a: 2, b: 40 });
  expect(sum.structuredContent).toEqual({ sum: 42 });
  expect(as.user.authorizations).toHaveLength(2);
  expect(as.user.authorizations[1]!.searchParams.get('scope')).toBe(
    'mcp:read mcp:write offline_access',
  );
});

test('a second client for the same server and store makes no request to the authorization server', async () => {
  await using world = await setup();
  const { as, server, auth } = world;
  await using first = createMcpClient(server.url, { auth });
  await first.callTool('echo', { text: 'one' });
  const requests = as.tokenRequests.length;
  const registrations = as.registrations.length;
  const logged = server.log.length;

  await using second = createMcpClient(server.url, { auth });
  await second.callTool('echo', { text: 'two' });
  expect(as.tokenRequests).toHaveLength(requests);
  expect(as.registrations).toHaveLength(registrations);
  expect(as.user.authorizations).toHaveLength(1);
  // Not even a 401 first: the stored token went with the first request.
  expect(server.log[logged]!.headers['authorization']).toMatch(/^Bearer /);
});

test('the loopback helper receives the redirect from a real browser flow', async () => {
  await using world = await setup();
  const { as, server, store } = world;
  const login = loopbackAuthorization({
    // The user's browser: signs in at the authorization server and lands on the loopback URL.
    open: async (url) => {
      const redirect = await as.user.authorize(url, { signal: AbortSignal.timeout(10_000) });
      await fetch(redirect).then((response) => response.text());
    },
  });
  await using client = createMcpClient(server.url, { auth: { ...login, store } });
  await client.callTool('echo', { text: 'via loopback' });
  const redirectUri = await login.redirectUri();
  expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  expect(as.registrations[0]!['redirect_uris']).toEqual([redirectUri]);
});

test('close() while the user is at the authorization page leaves nothing behind', async () => {
  await using world = await setup();
  const { server, store } = world;
  const baseline = await settledHandles();
  let opened: (() => void) | undefined;
  const atPage = new Promise<void>((resolve) => {
    opened = resolve;
  });
  // A user who never comes back: the loopback listener waits until the client closes.
  const login = loopbackAuthorization({ open: () => opened!() });
  const client = createMcpClient(server.url, { auth: { ...login, store } });
  const call = client.callTool('echo', { text: 'never' }).catch((e: unknown) => e);
  await atPage;
  expect(handles()).toBeGreaterThan(baseline);
  await client.close();
  expect(await call).toBeInstanceOf(ClientClosedError);
  await waitFor(() => handles() <= baseline);
  expect(handles()).toBeLessThanOrEqual(baseline);
});
