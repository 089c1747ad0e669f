/**
 * A real OAuth 2.1 authorization server on loopback: panva's oidc-provider, with dynamic
 * registration, PKCE, resource indicators (JWT access tokens whose audience is the MCP resource),
 * rotating refresh tokens, revocation and client credentials. Its development login and consent
 * pages are driven headlessly by `user.authorize`, the callback an application would give.
 */

import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AuthorizeCallback } from '@toolwire/client';
import Provider from 'oidc-provider';
import { Agent, request } from 'undici';

export interface AuthorizationServer extends AsyncDisposable {
  issuer: string;
  provider: Provider;
  /** Every token request, in arrival order: its grant type and (for a refresh) its token. */
  tokenRequests: Array<{
    grantType: string;
    refreshToken?: string;
    scope?: string;
    resource?: string;
  }>;
  /** Every dynamic registration's body. */
  registrations: Array<Record<string, unknown>>;
  /** A user already signed in: logs in and consents to whatever is asked. */
  user: { authorize: AuthorizeCallback; authorizations: URL[] };
  /** Revokes every refresh token issued so far (as an administrator would). */
  revokeRefreshTokens(): Promise<void>;
  close(): Promise<void>;
}

export interface AuthorizationServerOptions {
  /** Access token lifetime, in seconds. @default 600 */
  accessTokenTtl?: number;
  scopes?: string[];
  /** Pre-registered clients (client credentials, say). */
  clients?: Array<Record<string, unknown>>;
}

export async function startAuthorizationServer(
  options: AuthorizationServerOptions = {},
): Promise<AuthorizationServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test', alg: 'ES256', use: 'sig' };
  const scopes = options.scopes ?? ['mcp:read', 'mcp:write', 'offline_access'];
  const refreshTokens = new Set<string>();
  const provider = new Provider(issuer, {
    clients: options.clients ?? [],
    jwks: { keys: [jwk as never] },
    scopes,
    // Its only signing key is a P-256 one.
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    cookies: { keys: ['toolwire-test'] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      revocation: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // Tokens for any resource on loopback: the MCP server's URL is the audience.
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) =>
          oneOf?.[0] ?? undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: scopes.filter((scope) => scope !== 'offline_access').join(' '),
          accessTokenFormat: 'jwt',
          accessTokenTTL: options.accessTokenTtl ?? 600,
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
  } as never);
  const result: AuthorizationServer = {
    issuer,
    provider,
    tokenRequests: [],
    registrations: [],
    user: { authorize: async () => '', authorizations: [] },
    async revokeRefreshTokens() {
      for (const value of refreshTokens) {
        const token = await provider.RefreshToken.find(value);
        await token?.destroy();
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    [Symbol.asyncDispose]() {
      return result.close();
    },
  };
  provider.on('grant.success', (ctx: { oidc: { body?: Record<string, string> } }) => {
    const body = ctx.oidc.body ?? {};
    if (body['refresh_token']) refreshTokens.add(body['refresh_token']);
  });
  provider.on('refresh_token.saved', (token: { jti: string }) => refreshTokens.add(token.jti));
  provider.use(async (ctx: KoaContext, next: () => Promise<void>) => {
    if (ctx.method === 'POST' && ctx.path === '/token') {
      // Read before oidc-provider does: koa's body is a stream, so note it from the raw form.
      const form = new URLSearchParams(await readRaw(ctx.req));
      (ctx.req as { body?: unknown }).body = Object.fromEntries(form);
      result.tokenRequests.push({
        grantType: form.get('grant_type') ?? '',
        ...(form.get('refresh_token') ? { refreshToken: form.get('refresh_token')! } : {}),
        ...(form.get('scope') ? { scope: form.get('scope')! } : {}),
        ...(form.get('resource') ? { resource: form.get('resource')! } : {}),
      });
    }
    if (ctx.method === 'POST' && ctx.path === '/reg') {
      const body = JSON.parse(await readRaw(ctx.req)) as Record<string, unknown>;
      (ctx.req as { body?: unknown }).body = body;
      result.registrations.push(body);
    }
    await next();
  });
  server.on('request', provider.callback());
  result.user = headlessUser(issuer);
  return result;
}

/** What the recording middleware reads of koa's context. */
interface KoaContext {
  method: string;
  path: string;
  req: NodeJS.ReadableStream;
}

function readRaw(req: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/**
 * The user at the browser: follows the authorization server's redirects, signs in as `alice` on
 * the login page and consents on the consent page, keeping cookies as a browser would, until the
 * redirect leaves for the client's redirect URI. Over an Agent of its own, closed after each run.
 */
function headlessUser(issuer: string): AuthorizationServer['user'] {
  const authorizations: URL[] = [];
  const authorize: AuthorizeCallback = async (url, { signal }) => {
    authorizations.push(url);
    const agent = new Agent();
    const cookies = new Map<string, string>();
    const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const keep = (setCookie: string | string[] | undefined) => {
      for (const line of [setCookie ?? []].flat()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
      }
    };
    try {
      let next = new URL(url);
      let form: string | undefined;
      for (let hop = 0; hop < 20; hop++) {
        const response = await request(next, {
          dispatcher: agent,
          method: form === undefined ? 'GET' : 'POST',
          headers: {
            cookie: cookieHeader(),
            ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
          },
          ...(form === undefined ? {} : { body: form }),
          signal,
        });
        keep(response.headers['set-cookie']);
        const page = await response.body.text();
        form = undefined;
        const location = response.headers['location'];
        if (typeof location === 'string') {
          const target = new URL(location, next);
          if (target.origin !== issuer) return target.href; // Back to the client.
          next = target;
          continue;
        }
        // A development interaction page: sign in, or consent.
        const action = /action="([^"]+)"/.exec(page)?.[1];
        if (!action) throw new Error(`unexpected page at ${next.href}: ${page.slice(0, 200)}`);
        next = new URL(action, next);
        const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1] ?? 'login';
        form =
          prompt === 'login'
            ? new URLSearchParams({ prompt, login: 'alice', password: 'secret' }).toString()
            : new URLSearchParams({ prompt }).toString();
      }
      throw new Error('too many redirects at the authorization server');
    } finally {
      await agent.close();
    }
  };
  return { authorize, authorizations };
}
