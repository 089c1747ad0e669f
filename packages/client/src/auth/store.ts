/**
 * Where OAuth state lives between requests, clients and processes: tokens, client registrations
 * and what discovery found. Plain JSON under string keys, so a store is easy to back by a Map, a
 * file or Redis; an optional lock lets processes that share a store refresh a token once.
 */
import type { JsonObject } from '../core/jsonrpc.ts';

type Awaitable<T> = T | Promise<T>;

/**
 * The store the client keeps OAuth state in. Values are JSON objects ({@link TokenRecord},
 * {@link ClientRecord}, {@link ResourceRecord}, {@link IssuerRecord}) under the keys of
 * {@link authKeys}. Tokens and client secrets are in them: keep the store as private as the
 * credentials themselves (a file readable by its owner only, say).
 */
export interface AuthStore {
  get(key: string): Awaitable<JsonObject | undefined>;
  set(key: string, value: JsonObject): Awaitable<void>;
  delete(key: string): Awaitable<void>;
  /**
   * An exclusive lock on `key` among every process that shares this store, for stores that are
   * shared (Redis, a file). The client holds it while it refreshes a token or authorizes, then
   * reads the store again, so a rotating refresh token is spent once however many processes
   * wait. Resolves with the function that releases it; `ttlMs` bounds a holder that died. Stores
   * of one process leave it out: the client already runs one refresh per key in a process.
   */
  lock?(
    key: string,
    options: { ttlMs: number; signal: AbortSignal },
  ): Promise<() => Awaitable<void>>;
}

/**
 * The keys the client uses. Credentials are keyed by the authorization server's issuer, so a
 * server that moves to another authorization server gets a new registration and old credentials
 * never reach the new one.
 */
export const authKeys = {
  /** {@link TokenRecord}: the tokens one issuer gave for one resource (the MCP server). */
  tokens: (issuer: string, resource: string) => `tokens ${issuer} ${resource}`,
  /** {@link ClientRecord}: how the client is registered with one issuer. */
  client: (issuer: string) => `client ${issuer}`,
  /**
   * `{ issuer }`: the issuer a pre-registered client's secret was first used with, when the
   * application named none (`auth.client.issuer`); the secret goes to no other.
   */
  clientIssuer: (clientId: string) => `client-issuer ${clientId}`,
  /** {@link ResourceRecord}: what the MCP server's protected-resource metadata said. */
  resource: (resource: string) => `resource ${resource}`,
  /** {@link IssuerRecord}: one authorization server's validated metadata. */
  issuer: (issuer: string) => `issuer ${issuer}`,
} as const;

/** An access token and what came with it. */
export interface TokenRecord extends JsonObject {
  accessToken: string;
  /** `Bearer`, or `DPoP` for a token bound to the client's DPoP key. */
  tokenType: string;
  /** When the access token expires (ms since the epoch), when the server said. */
  expiresAt?: number;
  refreshToken?: string;
  /** The scopes asked for: a step-up asks for these and the new ones together. */
  scopes: string[];
  /** The private DPoP key (a JWK) a DPoP-bound token and its refresh token are tied to. */
  dpopKey?: JsonObject;
}

/** A client registration with one authorization server. */
export interface ClientRecord extends JsonObject {
  clientId: string;
  clientSecret?: string;
  /** The token endpoint authentication method the registration settled on. */
  authMethod?: string;
  /** The redirect URI the registration was made for (dynamic registration). */
  redirectUri?: string;
  /** How the client id came to be: `dynamic` registration or a `metadata-document` URL. */
  source: 'dynamic' | 'metadata-document';
}

/** What an MCP server's protected-resource metadata said, and where it was found. */
export interface ResourceRecord extends JsonObject {
  /** The resource identifier tokens are asked for (RFC 8707). */
  resource: string;
  authorizationServers: string[];
  scopesSupported?: string[];
  /** The URL the metadata came from; absent for a 2025-03-26 server without any. */
  metadataUrl?: string;
}

/** One authorization server's metadata, checked against its issuer. */
export interface IssuerRecord extends JsonObject {
  issuer: string;
  /** The RFC 8414 / OpenID document as served; `fallback` when none was (2025-03-26). */
  metadata: JsonObject;
}

/** The default store: a Map in this process. */
export function memoryAuthStore(): AuthStore {
  const values = new Map<string, JsonObject>();
  return {
    get: (key) => values.get(key),
    set: (key, value) => void values.set(key, structuredClone(value)),
    delete: (key) => void values.delete(key),
  };
}

/**
 * The store clients use when given none: one per process, so a second client for the same server
 * reuses the first one's tokens. An application that acts for several users passes a store per user.
 */
export const sharedAuthStore: AuthStore = memoryAuthStore();
