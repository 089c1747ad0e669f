/**
 * Who the client is at an authorization server, in the specification's order: a pre-registered
 * client, then a Client ID Metadata Document, then dynamic registration (with `application_type`
 * and `refresh_token` in `grant_types`). A registration is kept per issuer and never offered to
 * another one.
 */
import type { webcrypto } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { usageError } from '../core/call-boundary.ts';
import { AuthorizationError } from '../core/errors.ts';
import type { JsonObject } from '../core/jsonrpc.ts';
import { type DiscoveryContext, requestOptions } from './discovery.ts';
import { oauthFailure } from './failure.ts';
import { isLoopback } from './reach.ts';
import { type AuthStore, authKeys, type ClientRecord } from './store.ts';
import type { OAuthOptions, RegisteredClient } from './types.ts';

/** The client as the token endpoint sees it: its id, and how it proves it. */
export interface ClientIdentity {
  client: oauth.Client;
  authentication: oauth.ClientAuth;
}

export interface RegistrationContext extends DiscoveryContext {
  options: OAuthOptions;
  store: AuthStore;
  /** The redirect URI, asked only when registration needs it. */
  redirectUri: () => Promise<string | undefined>;
}

/** The client's identity at `as`: from the options, the store, or a new registration. */
export async function clientFor(
  as: oauth.AuthorizationServer,
  context: RegistrationContext,
): Promise<ClientIdentity> {
  const given = context.options.client;
  if (given) {
    if (given.issuer !== undefined && given.issuer !== as.issuer) {
      throw new AuthorizationError(
        'unsupported',
        `the client is registered with ${given.issuer}, but the server now uses ${as.issuer}`,
        { url: context.serverUrl.href },
      );
    }
    if (given.issuer === undefined && given.clientSecret !== undefined) {
      await pinIssuer(given.clientId, as.issuer, context);
    }
    return { client: { client_id: given.clientId }, authentication: await authenticate(given, as) };
  }
  const metadataUrl = context.options.clientMetadataUrl;
  if (metadataUrl && as['client_id_metadata_document_supported'] === true) {
    return { client: { client_id: metadataUrl }, authentication: oauth.None() };
  }
  const key = authKeys.client(as.issuer);
  const stored = (await context.store.get(key)) as ClientRecord | undefined;
  const redirectUri = await context.redirectUri();
  if (stored && (stored.redirectUri === undefined || stored.redirectUri === redirectUri)) {
    return identityOf(stored, as);
  }
  const registered = await register(as, context, redirectUri);
  await context.store.set(key, registered);
  return identityOf(registered, as);
}

/**
 * A secret given without its issuer goes to the first issuer it is used with, and never to
 * another: the MCP server names the authorization server, and a hostile one would name its own
 * to collect the secret. (A private key signs assertions for one audience, and is not sent.)
 */
async function pinIssuer(
  clientId: string,
  issuer: string,
  context: RegistrationContext,
): Promise<void> {
  const key = authKeys.clientIssuer(clientId);
  const pinned = (await context.store.get(key))?.['issuer'];
  if (pinned === undefined) return context.store.set(key, { issuer });
  if (pinned !== issuer) {
    throw new AuthorizationError(
      'issuer_mismatch',
      `the client secret was first used with ${String(pinned)}, and the server now names ${issuer}; set \`auth.client.issuer\` to the one it is for`,
      { url: context.serverUrl.href },
    );
  }
}

/** Forgets a registration the authorization server no longer knows (`invalid_client`). */
export async function forgetClient(as: oauth.AuthorizationServer, store: AuthStore): Promise<void> {
  await store.delete(authKeys.client(as.issuer));
}

async function register(
  as: oauth.AuthorizationServer,
  context: RegistrationContext,
  redirectUri: string | undefined,
): Promise<ClientRecord> {
  if (!as.registration_endpoint) {
    throw new AuthorizationError(
      'unsupported',
      `${as.issuer} offers no registration, and no client was given (the \`client\` option)`,
      { url: context.serverUrl.href },
    );
  }
  const methods = as.token_endpoint_auth_methods_supported;
  // A public client when the server allows it; else a secret, sent as the server prefers.
  const authMethod =
    !methods || methods.includes('none')
      ? 'none'
      : methods.includes('client_secret_basic')
        ? 'client_secret_basic'
        : methods.includes('client_secret_post')
          ? 'client_secret_post'
          : 'none';
  const metadata: JsonObject = {
    client_name: context.options.clientName ?? 'toolwire',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: authMethod,
    application_type: context.options.applicationType ?? applicationType(redirectUri),
  };
  if (redirectUri !== undefined) metadata['redirect_uris'] = [redirectUri];
  let client: JsonObject;
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      metadata as Partial<oauth.Client>,
      requestOptions(new URL(as.registration_endpoint), context),
    );
    client = await registrationAnswer(response, context.serverUrl.href);
  } catch (error) {
    throw oauthFailure(error, 'registration', context.serverUrl.href);
  }
  const record: ClientRecord = { clientId: client['client_id'] as string, source: 'dynamic' };
  const secret = client['client_secret'];
  if (typeof secret === 'string') record.clientSecret = secret;
  const method = client['token_endpoint_auth_method'];
  record.authMethod =
    typeof method === 'string' ? method : record.clientSecret ? 'client_secret_basic' : 'none';
  if (redirectUri !== undefined) record.redirectUri = redirectUri;
  return record;
}

/**
 * A registration answer, read as leniently as is safe: a client id is all it must carry (many
 * servers leave out fields RFC 7591 asks for, such as `client_secret_expires_at`).
 */
async function registrationAnswer(response: Response, url: string): Promise<JsonObject> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const answer = (typeof body === 'object' && body !== null ? body : {}) as JsonObject;
  if (response.status !== 200 && response.status !== 201) {
    const error = typeof answer['error'] === 'string' ? answer['error'] : undefined;
    const description =
      typeof answer['error_description'] === 'string' ? `: ${answer['error_description']}` : '';
    throw new AuthorizationError(
      'refused',
      `registration failed with ${error ?? `HTTP ${response.status}`}${description}`,
      { url, oauthError: error, status: response.status },
    );
  }
  if (typeof answer['client_id'] !== 'string' || answer['client_id'] === '') {
    throw new AuthorizationError('refused', 'registration answered without a client_id', { url });
  }
  return answer;
}

function identityOf(record: ClientRecord, as: oauth.AuthorizationServer): ClientIdentity {
  const client: oauth.Client = { client_id: record.clientId };
  const secret = record.clientSecret;
  const method = record.authMethod ?? (secret ? 'client_secret_basic' : 'none');
  if (!secret || method === 'none') return { client, authentication: oauth.None() };
  return {
    client,
    authentication:
      method === 'client_secret_post' ||
      (method !== 'client_secret_basic' &&
        as.token_endpoint_auth_methods_supported?.includes('client_secret_post'))
        ? oauth.ClientSecretPost(secret)
        : basic(secret),
  };
}

/** A pre-registered client's authentication: as it says, else the strongest it can do here. */
async function authenticate(
  given: RegisteredClient,
  as: oauth.AuthorizationServer,
): Promise<oauth.ClientAuth> {
  const supported = as.token_endpoint_auth_methods_supported;
  const method =
    given.authMethod ??
    (given.privateKey
      ? 'private_key_jwt'
      : given.clientSecret === undefined
        ? 'none'
        : supported &&
            !supported.includes('client_secret_basic') &&
            supported.includes('client_secret_post')
          ? 'client_secret_post'
          : 'client_secret_basic');
  switch (method) {
    case 'private_key_jwt': {
      if (!given.privateKey)
        throw usageError('expected `auth.client.privateKey` for private_key_jwt');
      return oauth.PrivateKeyJwt(
        await signingKey(given.privateKey, given.signingAlgorithm ?? 'ES256'),
      );
    }
    case 'client_secret_post':
    case 'client_secret_basic': {
      if (given.clientSecret === undefined) {
        throw usageError(`expected \`auth.client.clientSecret\` for ${method}`);
      }
      return method === 'client_secret_post'
        ? oauth.ClientSecretPost(given.clientSecret)
        : basic(given.clientSecret);
    }
    default:
      return oauth.None();
  }
}

/**
 * client_secret_basic. RFC 6749 §2.3.1 form-encodes the id and secret first; oauth4webapi also
 * escapes the characters form encoding leaves alone (`-`, `.`, `_`...), which servers that do not
 * decode (most of them) then refuse. Escaping only what must be escaped reads the same to a server
 * that decodes and to one that does not, for every id and secret made of such characters.
 */
export function basic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    const credentials = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`;
    headers.set('authorization', `Basic ${Buffer.from(credentials).toString('base64')}`);
  };
}

/** WebCrypto import parameters for each JWS algorithm a client key may sign with. */
const ALGORITHMS: Record<
  string,
  webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams | webcrypto.Algorithm
> = {
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
  ES384: { name: 'ECDSA', namedCurve: 'P-384' },
  ES512: { name: 'ECDSA', namedCurve: 'P-521' },
  RS256: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  RS384: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-384' },
  RS512: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512' },
  PS256: { name: 'RSA-PSS', hash: 'SHA-256' },
  PS384: { name: 'RSA-PSS', hash: 'SHA-384' },
  PS512: { name: 'RSA-PSS', hash: 'SHA-512' },
  EdDSA: { name: 'Ed25519' },
};

/** A private key from a PKCS#8 PEM (or as given), for signing client assertions. */
export async function signingKey(
  key: string | webcrypto.CryptoKey,
  algorithm: string,
): Promise<webcrypto.CryptoKey> {
  if (typeof key !== 'string') return key;
  const params = ALGORITHMS[algorithm];
  if (!params)
    throw usageError(`expected a JWS algorithm oauth4webapi signs with, got "${algorithm}"`);
  const base64 = key.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, '').replace(/\s+/g, '');
  return crypto.subtle.importKey('pkcs8', Buffer.from(base64, 'base64'), params, false, ['sign']);
}

/** Native for a loopback redirect (CLIs, desktop apps), web otherwise. */
function applicationType(redirectUri: string | undefined): 'native' | 'web' {
  if (redirectUri === undefined) return 'native';
  try {
    const url = new URL(redirectUri);
    return isLoopback(url) || !url.protocol.startsWith('http') ? 'native' : 'web';
  } catch {
    return 'native';
  }
}
