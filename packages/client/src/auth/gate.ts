/**
 * The `headers` and `auth` options as a request gate (wire/transport/http.ts): headers asked for each
 * request, credentials on every request to the server's origin and on no other, and what to do
 * when the server refuses them. OAuth itself is loaded only when asked for.
 */
import type { Dispatcher } from 'undici';
import { usageError } from '../core/call-boundary.ts';
import { AuthorizationError, isMcpError } from '../core/errors.ts';
import type { HttpRequest, Refusal, RequestGate } from '../wire/transport/http.ts';
import type { AuthOption, AuthProvider, OAuthOptions } from './types.ts';

/** Headers asked for before each request (the `headers` option as a function). */
export type HeadersSource = (request: {
  url: string;
  method: string;
  signal: AbortSignal;
}) => Record<string, string> | Promise<Record<string, string>>;

export interface GateOptions {
  url: string;
  headers: HeadersSource | undefined;
  auth: AuthOption | undefined;
  /** The client's own dispatcher: the authorization server is spoken to over it. */
  dispatcher: Dispatcher;
  maxResponseBytes: number;
}

/** The gate the options ask for, or undefined when plain static headers are all there is. */
export function gateFor(options: GateOptions): RequestGate | undefined {
  const auth = options.auth === undefined ? undefined : credentials(options);
  const source = options.headers;
  if (!auth && !source) return undefined;
  const atServer = originCheck(options.url);
  return {
    headers(request) {
      // Neither credentials nor the application's headers go to another origin than the server's.
      if (!atServer(request.url)) return {};
      // Credentials alone (nearly every client with auth): no frame of our own per request.
      if (!source) return auth ? auth.headers(request) : {};
      return withSource(source, auth, request);
    },
    async refused(request, response) {
      if (!auth || !atServer(request.url)) return false;
      return auth.refused(request, response);
    },
  };
}

async function withSource(
  source: HeadersSource,
  auth: RequestGate | undefined,
  request: HttpRequest,
): Promise<Record<string, string>> {
  const extra = await source(describe(request));
  return auth ? { ...extra, ...(await auth.headers(request)) } : extra;
}

/**
 * Whether a URL is at the server's origin, where credentials may go. A client sends nearly
 * every request to one URL: the last answer is kept, so a URL is not parsed per request.
 */
function originCheck(serverUrl: string): (url: string) => boolean {
  const origin = new URL(serverUrl).origin;
  let last = serverUrl;
  let same = true;
  return (url) => {
    if (url !== last) {
      same = new URL(url).origin === origin;
      last = url;
    }
    return same;
  };
}

/** The auth option as a gate of its own: a token, a token source, a provider, or OAuth. */
function credentials(options: GateOptions): RequestGate {
  const auth = options.auth!;
  if (typeof auth === 'string') return fixedBearer(auth);
  if (typeof auth === 'function') return bearer(auth, true);
  if (isProvider(auth)) return provided(auth);
  return lazyOAuth(auth, options);
}

/** A token given outright: the same header on every request, and a 401 stands. */
function fixedBearer(token: string): RequestGate {
  const gate = bearer(() => token, false);
  if (token === '') return gate; // refused on each request, as a source's empty token is
  const header = { authorization: `Bearer ${token}` };
  return { headers: () => header, refused: gate.refused };
}

/** A bearer token; a source is asked again after a 401, once per request. */
function bearer(
  source: (context: { signal: AbortSignal }) => string | Promise<string>,
  renewable: boolean,
): RequestGate {
  const retried = new WeakSet<HttpRequest>();
  return {
    async headers(request) {
      const token = await ownCallback(() => source({ signal: request.signal }), request);
      if (typeof token !== 'string' || token === '') {
        throw usageError('expected the `auth` token function to return a non-empty string');
      }
      return { authorization: `Bearer ${token}` };
    },
    async refused(request, response) {
      if (
        response.status === 403 &&
        !/insufficient_scope/.test(response.header('www-authenticate') ?? '')
      ) {
        return false;
      }
      if (response.status === 401 && renewable && !retried.has(request)) {
        retried.add(request);
        return true;
      }
      throw refusal(request, response);
    },
  };
}

function provided(provider: AuthProvider): RequestGate {
  return {
    headers: (request) => ownCallback(() => provider.headers(describe(request)), request),
    async refused(request, response) {
      const { refused } = provider;
      if (!refused) return false;
      return ownCallback(
        () =>
          refused.call(provider, {
            ...describe(request),
            status: response.status as 401 | 403,
            header: (name) => response.header(name),
          }),
        request,
      );
    },
  };
}

/**
 * Runs a callback of the application's: what it throws becomes an AuthorizationError carrying it
 * (an abort stays the abort's own error).
 */
export async function ownCallback<T>(
  callback: () => T | Promise<T>,
  request: { url: string; signal: AbortSignal },
): Promise<T> {
  try {
    return await callback();
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason;
    if (isMcpError(error)) throw error;
    throw new AuthorizationError('callback_failed', 'an auth callback of the application failed', {
      url: request.url,
      cause: error,
    });
  }
}

/** OAuth, imported on the first request: clients without it never load oauth4webapi. */
function lazyOAuth(options: OAuthOptions, gate: GateOptions): RequestGate {
  let session: Promise<RequestGate> | undefined;
  const load = () => {
    session ??= import('./oauth.ts').then(
      ({ OAuthSession }) =>
        new OAuthSession(gate.url, options, gate.dispatcher, gate.maxResponseBytes),
    );
    return session;
  };
  return {
    headers: async (request) => (await load()).headers(request),
    refused: async (request, response) => (await load()).refused(request, response),
  };
}

function refusal(request: HttpRequest, response: Refusal): AuthorizationError {
  const scope = response.status === 403;
  return new AuthorizationError(
    scope ? 'insufficient_scope' : 'rejected',
    scope ? 'the server wants more scopes than the token has' : 'the server refused the token',
    { url: request.url, status: response.status },
  );
}

function describe(request: HttpRequest) {
  return { url: request.url, method: request.method, signal: request.signal };
}

function isProvider(value: object): value is AuthProvider {
  return typeof (value as Partial<AuthProvider>).headers === 'function';
}

/** Checks the `auth` option at construction: a TypeError names what is wrong. */
export function checkAuth(auth: unknown): void {
  if (auth === undefined || typeof auth === 'function') return;
  if (typeof auth === 'string') {
    if (auth === '') throw usageError('expected `auth` to be a non-empty token');
    return;
  }
  if (typeof auth !== 'object' || auth === null) {
    throw usageError('expected `auth` to be a token, a function, a provider or OAuth options');
  }
  if (isProvider(auth)) return;
  const oauth = auth as OAuthOptions;
  for (const key of ['authorize', 'redirectUri'] as const) {
    const value = oauth[key];
    if (
      value !== undefined &&
      typeof value !== 'function' &&
      (key === 'authorize' || typeof value !== 'string')
    ) {
      throw usageError(
        `expected \`auth.${key}\` to be a ${key === 'authorize' ? 'function' : 'string or a function'}`,
      );
    }
  }
  if ((oauth.authorize === undefined) !== (oauth.redirectUri === undefined)) {
    throw usageError('expected `auth.authorize` and `auth.redirectUri` together');
  }
  const grant = oauth.grant;
  if (grant !== undefined) {
    const types = ['client_credentials', 'jwt_bearer', 'enterprise'];
    if (!types.includes((grant as { type?: string }).type ?? '')) {
      throw usageError(`expected \`auth.grant.type\` to be one of ${types.join(', ')}`);
    }
    if (!oauth.client) throw usageError(`expected \`auth.client\` for the ${grant.type} grant`);
  }
  if (
    oauth.client !== undefined &&
    (typeof oauth.client.clientId !== 'string' || oauth.client.clientId === '')
  ) {
    throw usageError('expected `auth.client.clientId` to be a non-empty string');
  }
  if (oauth.clientMetadataUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(oauth.clientMetadataUrl);
    } catch {}
    if (url?.protocol !== 'https:' || url.pathname === '/') {
      throw usageError('expected `auth.clientMetadataUrl` to be an https URL with a path');
    }
  }
  const dpop = oauth.dpop;
  if (dpop !== undefined && dpop !== true && dpop !== false && dpop !== 'auto') {
    throw usageError("expected `auth.dpop` to be true, false or 'auto'");
  }
  if (
    oauth.maxStepUps !== undefined &&
    !(Number.isInteger(oauth.maxStepUps) && oauth.maxStepUps >= 0)
  ) {
    throw usageError('expected `auth.maxStepUps` to be a whole number >= 0');
  }
}
