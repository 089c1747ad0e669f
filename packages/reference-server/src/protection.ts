/**
 * Protected mode: the server as an OAuth 2.1 resource server (MCP authorization, both eras).
 * Every request but the protected-resource metadata must carry a valid bearer token; one without
 * gets 401 with `WWW-Authenticate: Bearer resource_metadata=..., scope=...`, a `tools/call` of a
 * tool that needs more scopes gets 403 `insufficient_scope`. Tokens are RFC 9068 JWT access tokens
 * of the first authorization server (its keys come from its `jwks_uri`), whose audience is the
 * endpoint, unless the options bring a `verify` of their own.
 */
import { createPublicKey, verify as verifySignature } from 'node:crypto';
import { get as getHttp, type IncomingMessage, type ServerResponse } from 'node:http';
import { get as getHttps } from 'node:https';
import { header, sendJson } from './http-util.ts';
import { isObject, type JsonObject, type RpcIncoming } from './jsonrpc.ts';
import type { ProtectionOptions, TokenInfo } from './types.ts';

const METADATA_PATH = '/.well-known/oauth-protected-resource';

/** Paths that answer for a client configured with another URL: they share its resource. */
export type BaseOf = (path: string) => string;

export class Protection {
  readonly #options: ProtectionOptions;
  readonly #baseOf: BaseOf;
  readonly #granted = new WeakMap<IncomingMessage, TokenInfo>();
  #keys: Promise<JsonObject[]> | undefined;

  constructor(options: ProtectionOptions, baseOf: BaseOf) {
    if (options.authorizationServers.length === 0) {
      throw new RangeError('protect.authorizationServers must name at least one server');
    }
    this.#options = options;
    this.#baseOf = baseOf;
  }

  /** Serves the protected-resource metadata (RFC 9728) of any path; false for other paths. */
  serveMetadata(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (path !== METADATA_PATH && !path.startsWith(`${METADATA_PATH}/`)) return false;
    const document: JsonObject = {
      resource: `${origin(req)}${path.slice(METADATA_PATH.length)}`,
      authorization_servers: [...this.#options.authorizationServers],
      bearer_methods_supported: ['header'],
    };
    if (this.#options.scopesSupported) document['scopes_supported'] = this.#options.scopesSupported;
    sendJson(res, 200, document);
    return true;
  }

  /** Checks the request's token; answers 401 itself and resolves false when it is not good. */
  async admit(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    const resource = `${origin(req)}${this.#baseOf(path)}`;
    const match = /^Bearer\s+(\S+)$/i.exec(header(req, 'authorization') ?? '');
    const info = match ? await this.#verify(match[1]!, resource).catch(() => undefined) : undefined;
    const required = this.#options.scopes ?? [];
    if (info && required.every((scope) => info.scopes.includes(scope))) {
      this.#granted.set(req, info);
      return true;
    }
    const error = match ? ', error="invalid_token"' : '';
    this.#challenge(res, 401, resource, required, error, match ? 'invalid_token' : 'unauthorized');
    return false;
  }

  /**
   * Answers 403 insufficient_scope for a `tools/call` of a tool that needs scopes the token lacks;
   * resolves false then. Called once the body is read, before anything is answered.
   */
  permits(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    messages: readonly RpcIncoming[],
  ): boolean {
    const toolScopes = this.#options.toolScopes ?? {};
    const granted = this.#granted.get(req)?.scopes ?? [];
    for (const message of messages) {
      if (message.kind !== 'request' || message.method !== 'tools/call') continue;
      const name = isObject(message.params) ? message.params['name'] : undefined;
      const needed = typeof name === 'string' ? (toolScopes[name] ?? []) : [];
      const missing = needed.filter((scope) => !granted.includes(scope));
      if (missing.length > 0) {
        const resource = `${origin(req)}${this.#baseOf(path)}`;
        this.#challenge(
          res,
          403,
          resource,
          missing,
          ', error="insufficient_scope"',
          'insufficient_scope',
        );
        return false;
      }
    }
    return true;
  }

  #challenge(
    res: ServerResponse,
    status: 401 | 403,
    resource: string,
    scopes: readonly string[],
    error: string,
    code: string,
  ): void {
    const url = new URL(resource);
    const metadata = `${url.origin}${METADATA_PATH}${url.pathname === '/' ? '' : url.pathname}`;
    const scope = scopes.length > 0 ? `, scope="${scopes.join(' ')}"` : '';
    sendJson(
      res,
      status,
      { error: code },
      {
        'www-authenticate': `Bearer resource_metadata="${metadata}"${scope}${error}`,
      },
    );
  }

  #verify(token: string, resource: string): Promise<TokenInfo | undefined> {
    if (this.#options.verify) return Promise.resolve(this.#options.verify(token, { resource }));
    return this.#verifyJwt(token, resource);
  }

  /** RFC 9068: a signed JWT of the authorization server, for this resource, not expired. */
  async #verifyJwt(token: string, resource: string): Promise<TokenInfo | undefined> {
    const [head, body, signature] = token.split('.');
    if (!head || !body || !signature) return undefined;
    const header = decode(head);
    const claims = decode(body);
    const typ = typeof header['typ'] === 'string' ? header['typ'].toLowerCase() : '';
    if (typ !== 'at+jwt' && typ !== 'application/at+jwt') return undefined;
    const issuer = this.#options.authorizationServers[0]!;
    if (claims['iss'] !== issuer) return undefined;
    const audiences = Array.isArray(claims['aud']) ? claims['aud'] : [claims['aud']];
    if (!audiences.some((aud) => typeof aud === 'string' && covers(aud, resource)))
      return undefined;
    if (typeof claims['exp'] !== 'number' || claims['exp'] * 1000 < Date.now()) return undefined;
    this.#keys ??= this.#loadKeys(issuer);
    const keys = await this.#keys;
    const jwk = keys.find((key) => header['kid'] === undefined || key['kid'] === header['kid']);
    const algorithm = typeof header['alg'] === 'string' ? ALGORITHMS[header['alg']] : undefined;
    if (!jwk || !algorithm) return undefined;
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    const good = verifySignature(
      algorithm.hash,
      Buffer.from(`${head}.${body}`),
      { key, ...algorithm.options },
      Buffer.from(signature, 'base64url'),
    );
    if (!good) return undefined;
    const info: TokenInfo = {
      scopes: typeof claims['scope'] === 'string' ? claims['scope'].split(' ').filter(Boolean) : [],
    };
    if (typeof claims['sub'] === 'string') info.subject = claims['sub'];
    if (typeof claims['client_id'] === 'string') info.clientId = claims['client_id'];
    return info;
  }

  async #loadKeys(issuer: string): Promise<JsonObject[]> {
    try {
      const path = new URL(issuer).pathname.replace(/\/$/, '');
      const metadata = await getJson(
        `${new URL(issuer).origin}/.well-known/openid-configuration${path}`,
      ).catch(() => getJson(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`));
      const jwks = await getJson(String(metadata['jwks_uri']));
      return Array.isArray(jwks['keys']) ? (jwks['keys'] as JsonObject[]) : [];
    } catch (error) {
      this.#keys = undefined; // Try again on the next request.
      throw error;
    }
  }
}

const ALGORITHMS: Record<string, { hash: string; options: JsonObject }> = {
  RS256: { hash: 'sha256', options: {} },
  PS256: { hash: 'sha256', options: { padding: 6, saltLength: 32 } },
  ES256: { hash: 'sha256', options: { dsaEncoding: 'ieee-p1363' } },
};

/** The audience names this resource or a parent of it on the same origin. */
function covers(audience: string, resource: string): boolean {
  try {
    const aud = new URL(audience);
    const res = new URL(resource);
    const base = aud.pathname.replace(/\/$/, '');
    const path = res.pathname.replace(/\/$/, '');
    return aud.origin === res.origin && (path === base || path.startsWith(`${base}/`));
  } catch {
    return false;
  }
}

function decode(part: string): JsonObject {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

function origin(req: IncomingMessage): string {
  return `http://${header(req, 'host') ?? 'localhost'}`;
}

/** One JSON document over a connection of its own (no keep-alive socket outlives it). */
function getJson(url: string): Promise<JsonObject> {
  const get = url.startsWith('https:') ? getHttps : getHttp;
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false, timeout: 5_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode !== 200)
          return reject(new Error(`${url}: HTTP ${response.statusCode}`));
        try {
          const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (isObject(value)) resolve(value);
          else reject(new Error(`${url}: not a JSON object`));
        } catch (error) {
          reject(error);
        }
      });
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`${url}: timed out`)));
    request.on('error', reject);
  });
}
