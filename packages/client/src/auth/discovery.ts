/**
 * What MCP adds to OAuth discovery: where the protected-resource metadata is looked for (the
 * challenge's `resource_metadata`, then the path-inserted and root well-known URLs), which
 * resource it may name, and the order of authorization-server metadata URLs (RFC 8414 and OpenID
 * Connect, path insertion and appending), with the 2025-03-26 fallbacks for a server without any.
 * oauth4webapi checks each document against its issuer.
 */
import * as oauth from 'oauth4webapi';
import { AuthorizationError } from '../core/errors.ts';
import type { JsonObject } from '../core/jsonrpc.ts';
import type { AuthFetch } from './fetch.ts';
import { isLoopback, refusalToReach } from './reach.ts';
import type { IssuerRecord, ResourceRecord } from './store.ts';

export interface DiscoveryContext {
  /** The MCP server's URL. */
  serverUrl: URL;
  fetch: AuthFetch;
  signal: AbortSignal;
}

/** Options every oauth4webapi request gets: our fetch, the signal, plain HTTP for loopback only. */
export function requestOptions(url: URL, context: Pick<DiscoveryContext, 'fetch' | 'signal'>) {
  return {
    [oauth.customFetch]: context.fetch,
    [oauth.allowInsecureRequests]: isLoopback(url),
    signal: context.signal,
  };
}

/**
 * The protected-resource metadata: from the challenge's URL when there is one, else the
 * well-known URLs in the specification's order. Undefined when the server publishes none (a
 * 2025-03-26 server). A document naming another resource is refused.
 */
export async function discoverResource(
  context: DiscoveryContext,
  metadataUrl: string | undefined,
): Promise<ResourceRecord | undefined> {
  const { serverUrl } = context;
  const candidates: string[] = [];
  if (metadataUrl)
    candidates.push(reachable(metadataUrl, 'resource_metadata', serverUrl, serverUrl).href);
  const path = serverUrl.pathname.replace(/\/$/, '');
  if (path) candidates.push(`${serverUrl.origin}/.well-known/oauth-protected-resource${path}`);
  candidates.push(`${serverUrl.origin}/.well-known/oauth-protected-resource`);
  for (const url of [...new Set(candidates)]) {
    const document = await getJson(url, context);
    if (!document || !Array.isArray(document['authorization_servers'])) continue;
    const servers = document['authorization_servers'].filter(
      (server): server is string => typeof server === 'string',
    );
    if (servers.length === 0) continue;
    const resource =
      typeof document['resource'] === 'string' ? document['resource'] : serverUrl.href;
    if (!resourceCovers(resource, serverUrl)) {
      throw new AuthorizationError(
        'resource_mismatch',
        `the protected-resource metadata names another resource (${resource})`,
        { url: serverUrl.href },
      );
    }
    const record: ResourceRecord = { resource, authorizationServers: servers, metadataUrl: url };
    const scopes = document['scopes_supported'];
    if (Array.isArray(scopes)) record.scopesSupported = scopes.filter((s) => typeof s === 'string');
    return record;
  }
  return undefined;
}

/**
 * Whether metadata naming `resource` may speak for the server at `serverUrl`: the same origin,
 * and a path that is the server's or one of its parents (a server's root metadata names the root).
 */
export function resourceCovers(resource: string, serverUrl: URL): boolean {
  let named: URL;
  try {
    named = new URL(resource);
  } catch {
    return false;
  }
  if (named.origin !== serverUrl.origin || named.hash) return false;
  const parent = named.pathname.replace(/\/$/, '');
  const path = serverUrl.pathname.replace(/\/$/, '');
  return path === parent || path.startsWith(`${parent}/`);
}

/** The well-known metadata URLs of an issuer, in the order the specification gives. */
export function metadataUrls(issuer: URL): string[] {
  const path = issuer.pathname.replace(/\/$/, '');
  const origin = issuer.origin;
  if (!path) {
    return [
      `${origin}/.well-known/oauth-authorization-server`,
      `${origin}/.well-known/openid-configuration`,
    ];
  }
  return [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
    `${origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * An authorization server's metadata, tried at each well-known URL in turn and checked against
 * the issuer (RFC 8414 §3.3): a document for another issuer is never used. `legacy` (a
 * 2025-03-26 server without protected-resource metadata) falls back to the default endpoints at
 * the issuer's root when no document is found.
 */
export async function discoverIssuer(
  context: DiscoveryContext,
  issuer: string,
  legacy: boolean,
): Promise<IssuerRecord> {
  const issuerUrl = reachable(issuer, 'authorization server', context.serverUrl);
  for (const url of metadataUrls(issuerUrl)) {
    const response = await context.fetch(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      signal: context.signal,
    });
    if (response.status !== 200) continue;
    const copy = response.clone();
    let found: JsonObject;
    try {
      found = (await oauth.processDiscoveryResponse(issuerUrl, response)) as unknown as JsonObject;
    } catch (error) {
      const mismatch =
        error instanceof oauth.OperationProcessingError &&
        error.code === oauth.JSON_ATTRIBUTE_COMPARISON;
      if (!mismatch) continue; // Not a metadata document (HTML, say): try the next URL.
      // A 2025-03-26 server's metadata sits at its own root, and may name an issuer under a path
      // of that same origin: the document came from the server itself, so that issuer stands.
      const metadata = legacy ? await sameOriginMetadata(copy, issuerUrl) : undefined;
      if (metadata) {
        checkEndpoints(metadata, context.serverUrl);
        return { issuer: metadata['issuer'] as string, metadata };
      }
      throw new AuthorizationError(
        'issuer_mismatch',
        `the metadata at ${url} is for another issuer than ${issuer}`,
        { url: context.serverUrl.href },
      );
    }
    checkEndpoints(found, context.serverUrl);
    return { issuer: found['issuer'] as string, metadata: found };
  }
  if (legacy) {
    const origin = issuerUrl.origin;
    return {
      issuer: origin,
      metadata: {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        code_challenge_methods_supported: ['S256'],
        fallback: true,
      },
    };
  }
  throw new AuthorizationError(
    'discovery',
    `no authorization server metadata found for ${issuer}`,
    { url: context.serverUrl.href },
  );
}

/**
 * A URL the server (or its metadata) names for the client to reach, refused before anything sees
 * it when it is not a URL or is one the client must not reach (reach.ts).
 */
export function reachable(value: unknown, what: string, serverUrl: URL, base?: URL): URL {
  let url: URL | undefined;
  try {
    if (typeof value === 'string') url = new URL(value, base);
  } catch {}
  const refusal = url ? refusalToReach(url, serverUrl) : 'it is not an absolute URL';
  if (!url || refusal) {
    const shown = typeof value === 'string' ? value.slice(0, 200) : typeof value;
    throw new AuthorizationError('discovery', `refused the ${what} ${shown}: ${refusal}`, {
      url: serverUrl.href,
    });
  }
  return url;
}

/**
 * Every endpoint an authorization server's metadata names, checked before the metadata is used
 * or kept: the authorization endpoint is handed to the user's browser, and the others are spoken to.
 */
export function checkEndpoints(metadata: JsonObject, serverUrl: URL): void {
  for (const [name, value] of Object.entries(metadata)) {
    // An endpoint left out (absent, or null as some servers write it) is not one to reach.
    if (
      (name.endsWith('_endpoint') || name === 'jwks_uri') &&
      value !== undefined &&
      value !== null
    ) {
      reachable(value, name, serverUrl);
    }
  }
}

async function sameOriginMetadata(response: Response, base: URL): Promise<JsonObject | undefined> {
  const metadata = (await response.json()) as JsonObject;
  const issuer = metadata['issuer'];
  if (typeof issuer !== 'string') return undefined;
  try {
    return new URL(issuer).origin === base.origin ? metadata : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON object from a GET, or undefined for anything else (a 404, HTML, a broken body). */
async function getJson(url: string, context: DiscoveryContext): Promise<JsonObject | undefined> {
  const response = await context.fetch(url, {
    method: 'GET',
    headers: { accept: 'application/json' },
    signal: context.signal,
  });
  if (response.status !== 200) return undefined;
  try {
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as JsonObject)
      : undefined;
  } catch {
    return undefined;
  }
}
