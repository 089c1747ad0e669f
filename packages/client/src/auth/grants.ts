/**
 * Every way the client obtains a token, each an oauth4webapi request and its check: the
 * authorization code with PKCE S256, `resource` and the RFC 9207 `iss` check; refresh; client
 * credentials; a JWT bearer grant (workload identity); and enterprise-managed authorization (token
 * exchange at the IdP for an ID-JAG, then a JWT bearer grant). Each returns a TokenRecord.
 */
import * as oauth from 'oauth4webapi';
import { usageError } from '../core/call-boundary.ts';
import { AuthorizationError } from '../core/errors.ts';
import { type DiscoveryContext, reachable, requestOptions } from './discovery.ts';
import { oauthFailure } from './failure.ts';
import { ownCallback } from './gate.ts';
import type { ClientIdentity } from './registration.ts';
import type { TokenRecord } from './store.ts';
import type { AssertionSource, AuthorizeCallback, MachineGrant } from './types.ts';

export interface GrantContext extends DiscoveryContext {
  as: oauth.AuthorizationServer;
  identity: ClientIdentity;
  /** The resource tokens are for (RFC 8707), sent with every grant. */
  resource: string;
  scopes: string[];
  dpop: oauth.DPoPHandle | undefined;
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

/** The authorization code flow: the user is sent to `authorize`, the code is exchanged. */
export async function authorizationCode(
  context: GrantContext,
  authorize: AuthorizeCallback,
  redirectUri: string,
): Promise<TokenRecord> {
  const { as, identity, serverUrl } = context;
  if (!as.authorization_endpoint) {
    throw new AuthorizationError('unsupported', `${as.issuer} has no authorization endpoint`, {
      url: serverUrl.href,
    });
  }
  // PKCE S256 is required, and a server that does not say it supports it is refused.
  if (!as.code_challenge_methods_supported?.includes('S256')) {
    throw new AuthorizationError('unsupported', `${as.issuer} does not support PKCE with S256`, {
      url: serverUrl.href,
    });
  }
  // Checked again here, for metadata a store kept from before discovery checked it: this URL is
  // handed to the user's browser, and must not be one the system would run.
  const url = reachable(as.authorization_endpoint, 'authorization_endpoint', serverUrl);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const query = url.searchParams;
  query.set('response_type', 'code');
  query.set('client_id', identity.client.client_id);
  query.set('redirect_uri', redirectUri);
  query.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  query.set('code_challenge_method', 'S256');
  query.set('state', state);
  query.set('resource', context.resource);
  if (context.scopes.length > 0) query.set('scope', context.scopes.join(' '));
  if (context.dpop) query.set('dpop_jkt', await context.dpop.calculateThumbprint());

  const answer = await ownCallback(() => authorize(url, { signal: context.signal }), {
    url: serverUrl.href,
    signal: context.signal,
  });
  context.signal.throwIfAborted();
  let redirect: URL;
  try {
    redirect = new URL(String(answer));
  } catch {
    throw usageError('expected `authorize` to resolve with the URL the user was redirected to');
  }
  let parameters: URLSearchParams;
  try {
    // The `iss` check of RFC 9207 (simple string comparison) comes before anything else, an
    // error response included: a response from another issuer is never acted on or shown.
    parameters = oauth.validateAuthResponse(as, identity.client, redirect, state);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      throw oauthFailure(error, 'authorization', serverUrl.href, 'denied');
    }
    const iss = error instanceof oauth.OperationProcessingError && /"iss"/.test(error.message);
    throw new AuthorizationError(
      iss ? 'issuer_mismatch' : 'refused',
      iss
        ? `the authorization response did not come from ${as.issuer} (RFC 9207 iss check)`
        : `the authorization response was refused: ${(error as Error).message}`,
      { url: serverUrl.href },
    );
  }
  return withDPoPNonce(
    context,
    async () => {
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        identity.client,
        identity.authentication,
        parameters,
        redirectUri,
        verifier,
        tokenOptions(context),
      );
      return oauth.processAuthorizationCodeResponse(as, identity.client, response);
    },
    'the authorization code exchange',
  );
}

/** A refresh, asking for the same resource (and scopes). */
export function refresh(context: GrantContext, refreshToken: string): Promise<TokenRecord> {
  return withDPoPNonce(
    context,
    async () => {
      const response = await oauth.refreshTokenGrantRequest(
        context.as,
        context.identity.client,
        context.identity.authentication,
        refreshToken,
        tokenOptions(context),
      );
      return oauth.processRefreshTokenResponse(context.as, context.identity.client, response);
    },
    'the refresh',
    refreshToken,
  );
}

/** A grant without a user: client credentials, a JWT bearer assertion, or enterprise-managed. */
export async function machineGrant(
  context: GrantContext,
  grant: MachineGrant,
): Promise<TokenRecord> {
  const { as, identity } = context;
  const parameters: Record<string, string> = { resource: context.resource };
  if (context.scopes.length > 0) parameters['scope'] = context.scopes.join(' ');
  if (grant.type === 'client_credentials') {
    return withDPoPNonce(
      context,
      async () => {
        const response = await oauth.clientCredentialsGrantRequest(
          as,
          identity.client,
          identity.authentication,
          parameters,
          grantOptions(context),
        );
        return oauth.processClientCredentialsResponse(as, identity.client, response);
      },
      'the client credentials grant',
    );
  }
  const assertion =
    grant.type === 'jwt_bearer'
      ? await resolve(grant.assertion, context.signal)
      : await identityAssertion(context, grant.idp);
  return withDPoPNonce(
    context,
    async () => {
      const response = await oauth.genericTokenEndpointRequest(
        as,
        identity.client,
        identity.authentication,
        JWT_BEARER,
        { ...parameters, assertion },
        grantOptions(context),
      );
      return oauth.processGenericTokenEndpointResponse(as, identity.client, response);
    },
    'the JWT bearer grant',
  );
}

/** Enterprise-managed authorization, step one: the IdP exchanges the ID token for an ID-JAG. */
async function identityAssertion(
  context: GrantContext,
  idp: Extract<MachineGrant, { type: 'enterprise' }>['idp'],
): Promise<string> {
  const endpoint = new URL(idp.tokenEndpoint);
  const idpServer: oauth.AuthorizationServer = {
    issuer: idp.issuer ?? endpoint.origin,
    token_endpoint: endpoint.href,
  };
  const client: oauth.Client = { client_id: idp.clientId };
  const authentication =
    idp.clientSecret === undefined ? oauth.None() : oauth.ClientSecretPost(idp.clientSecret);
  const parameters: Record<string, string> = {
    requested_token_type: ID_JAG,
    audience: context.as.issuer,
    resource: context.resource,
    subject_token: await resolve(idp.idToken, context.signal),
    subject_token_type: ID_TOKEN,
  };
  if (context.scopes.length > 0) parameters['scope'] = context.scopes.join(' ');
  try {
    const response = await oauth.genericTokenEndpointRequest(
      idpServer,
      client,
      authentication,
      TOKEN_EXCHANGE,
      parameters,
      requestOptions(endpoint, context),
    );
    const result = await oauth.processGenericTokenEndpointResponse(idpServer, client, response, {
      // An ID-JAG is not an access token: its token_type is N_A (RFC 8693 §2.2.1).
      recognizedTokenTypes: { n_a: () => {} },
    });
    if (result['issued_token_type'] !== ID_JAG) {
      throw new AuthorizationError('refused', 'the IdP did not issue an identity assertion grant', {
        url: context.serverUrl.href,
      });
    }
    return result.access_token;
  } catch (error) {
    throw oauthFailure(error, 'the token exchange at the IdP', context.serverUrl.href);
  }
}

function tokenOptions(context: GrantContext): oauth.TokenEndpointRequestOptions {
  return {
    ...requestOptions(new URL(context.as.token_endpoint ?? context.as.issuer), context),
    additionalParameters: grantParameters(context),
    ...(context.dpop ? { DPoP: context.dpop } : {}),
  };
}

function grantOptions(context: GrantContext): oauth.ClientCredentialsGrantRequestOptions {
  return {
    ...requestOptions(new URL(context.as.token_endpoint ?? context.as.issuer), context),
    ...(context.dpop ? { DPoP: context.dpop } : {}),
  };
}

/**
 * `resource` on every token request (RFC 8707). No `scope` on a code exchange or a refresh: the
 * grant's own scopes stand (RFC 6749 §6), and asking for them again can only narrow or fail.
 */
function grantParameters(context: GrantContext): Record<string, string> {
  return { resource: context.resource };
}

/**
 * Runs a token request, once more if the server asks for a DPoP nonce (RFC 9449 §8: the handle
 * has kept it), and turns the answer into a TokenRecord.
 */
async function withDPoPNonce(
  context: GrantContext,
  request: () => Promise<oauth.TokenEndpointResponse>,
  doing: string,
  previousRefreshToken?: string,
): Promise<TokenRecord> {
  let result: oauth.TokenEndpointResponse;
  try {
    try {
      result = await request();
    } catch (error) {
      if (!context.dpop || !oauth.isDPoPNonceError(error)) throw error;
      result = await request();
    }
  } catch (error) {
    throw oauthFailure(error, doing, context.serverUrl.href);
  }
  const record: TokenRecord = {
    accessToken: result.access_token,
    tokenType: result.token_type === 'dpop' ? 'DPoP' : 'Bearer',
    scopes: context.scopes,
  };
  if (typeof result.expires_in === 'number') {
    record.expiresAt = Date.now() + result.expires_in * 1000;
  }
  const refreshToken = result.refresh_token ?? previousRefreshToken;
  if (refreshToken !== undefined) record.refreshToken = refreshToken;
  return record;
}

async function resolve(source: AssertionSource, signal: AbortSignal): Promise<string> {
  const value =
    typeof source === 'function'
      ? await ownCallback(() => source({ signal }), { url: '', signal })
      : source;
  if (typeof value !== 'string' || value === '') {
    throw usageError('expected the assertion to be a non-empty string (a JWT)');
  }
  return value;
}
