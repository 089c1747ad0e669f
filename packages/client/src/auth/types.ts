/**
 * The `auth` option: what an application hands the client so its requests carry credentials.
 * A token, a function that returns one, a provider of its own, or OAuth 2.1 options that the
 * client acts on by itself (discovery, registration, the grant, refresh, step-up).
 */
import type { webcrypto } from 'node:crypto';
import type { AuthStore } from './store.ts';

type Awaitable<T> = T | Promise<T>;

/** One request the client is about to send to the server's origin. */
export interface AuthRequest {
  url: string;
  method: string;
  signal: AbortSignal;
}

/** The server refused a request: its status and what it asked for. */
export interface AuthRefusal extends AuthRequest {
  status: 401 | 403;
  /** A response header (`www-authenticate`, `dpop-nonce`), by lower-case name. */
  header(name: string): string | undefined;
}

/**
 * Credentials of the application's own making. `headers` is asked before every request to the
 * server's origin; `refused`, when given, hears each 401 or 403 and resolves true to send the
 * request again with fresh headers (false lets it fail as `HttpStatusError`).
 */
export interface AuthProvider {
  headers(request: AuthRequest): Awaitable<Record<string, string>>;
  refused?(refusal: AuthRefusal): Awaitable<boolean>;
}

/** A bearer token asked for before each request: a fresh one after a 401, once. */
export type BearerTokenSource = (context: { signal: AbortSignal }) => Awaitable<string>;

/** A JWT the client presents as a grant (workload identity, an IdP's ID token). */
export type AssertionSource = string | ((context: { signal: AbortSignal }) => Awaitable<string>);

/**
 * A client registered with the authorization server beforehand. With `issuer` it is used with
 * that authorization server only; the server moving elsewhere is then an AuthorizationError.
 */
export interface RegisteredClient {
  clientId: string;
  clientSecret?: string;
  /** A PKCS#8 PEM or a CryptoKey, for `private_key_jwt`. */
  privateKey?: string | webcrypto.CryptoKey;
  /** The JWS algorithm of `privateKey` (ES256, RS256, PS256, EdDSA, ...). @default 'ES256' */
  signingAlgorithm?: string;
  /**
   * How the client authenticates at the token endpoint.
   * @default private_key_jwt with a key, else what the server supports of client_secret_basic and
   * client_secret_post with a secret, else none
   */
  authMethod?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';
  issuer?: string;
}

/** How tokens are obtained when no user is at hand. */
export type MachineGrant =
  /** OAuth client credentials: the `client` authenticates as itself. */
  | { type: 'client_credentials' }
  /** RFC 7523 JWT bearer: a workload identity token (a cloud or CI identity) as the grant. */
  | { type: 'jwt_bearer'; assertion: AssertionSource }
  /**
   * Enterprise-managed authorization: the IdP exchanges the user's ID token for an identity
   * assertion grant (ID-JAG), which the authorization server takes as a JWT bearer grant.
   */
  | {
      type: 'enterprise';
      idp: {
        tokenEndpoint: string;
        /** The IdP's issuer. @default the token endpoint's origin */
        issuer?: string;
        clientId: string;
        clientSecret?: string;
        idToken: AssertionSource;
      };
    };

/** Opens the authorization URL for the user and resolves with the redirect URL it led to. */
export type AuthorizeCallback = (
  url: URL,
  context: { signal: AbortSignal },
) => Promise<string | URL>;

/**
 * OAuth 2.1 as the MCP specification has it. Interactive: `authorize` and `redirectUri` (the
 * loopback helper gives both). Machine: a `grant`, with a `client` for client credentials.
 */
export interface OAuthOptions {
  /** Shows the user the authorization page and resolves with the redirect it ended on. */
  authorize?: AuthorizeCallback;
  /**
   * Where the authorization server sends the user back; a function is asked when registration or
   * authorization needs it (the loopback helper binds its listener then).
   */
  redirectUri?: string | (() => Awaitable<string>);
  /** A pre-registered client: used before any other kind of registration. */
  client?: RegisteredClient;
  /**
   * The HTTPS URL of the client's metadata document: the client id wherever the authorization
   * server supports Client ID Metadata Documents.
   */
  clientMetadataUrl?: string;
  /** The name dynamic registration gives the client. @default 'toolwire' */
  clientName?: string;
  /**
   * `native` (desktop, CLI, loopback redirect) or `web`, sent with dynamic registration.
   * @default 'native' for a loopback redirect URI, else 'web'
   */
  applicationType?: 'native' | 'web';
  /** Obtain tokens without a user. @default the authorization code flow */
  grant?: MachineGrant;
  /** Scopes to ask for, instead of the server's challenge or its `scopes_supported`. */
  scopes?: string[];
  /**
   * Ask for a refresh token with `offline_access` when the authorization server lists it.
   * @default true
   */
  offlineAccess?: boolean;
  /**
   * DPoP-bound tokens: `'auto'` when the server's challenge offers DPoP and the authorization
   * server supports it; `true` always; `false` never.
   * @default 'auto'
   */
  dpop?: boolean | 'auto';
  /** Where tokens, registrations and metadata are kept. @default one in-memory store per process */
  store?: AuthStore;
  /** How many step-ups (403 insufficient_scope) one request may go through. @default 2 */
  maxStepUps?: number;
}

/** What the `auth` option takes. */
export type AuthOption = string | BearerTokenSource | AuthProvider | OAuthOptions;
