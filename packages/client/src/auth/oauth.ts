/**
 * OAuth 2.1 for one client, as the MCP specification has it: the request gate that puts the
 * token on every request to the server's origin, refreshes it before it expires, and answers a
 * 401 (discovery, registration, a grant) or a 403 `insufficient_scope` (a step-up with the union
 * of scopes) before the request goes again. Loaded only when the `auth` option asks for OAuth.
 *
 * Renewals run once per server however many requests wait (flight.ts), so a rotating refresh
 * token is spent once; a shared store's lock extends that across processes.
 */
import type * as oauth from 'oauth4webapi';
import type { Dispatcher } from 'undici';
import { AuthorizationError } from '../core/errors.ts';
import type { HttpRequest, Refusal, RequestGate } from '../wire/transport/http.ts';
import { type Challenge, challengedScopes, oauthChallenge, parseChallenges } from './challenge.ts';
import { type DiscoveryContext, discoverIssuer, discoverResource } from './discovery.ts';
import { type DPoPKey, keepNonce, newDPoPKey, proofHeaders, restoreDPoPKey } from './dpop.ts';
import { oauthErrorOf } from './failure.ts';
import { type AuthFetch, fetchOver } from './fetch.ts';
import { shared } from './flight.ts';
import { authorizationCode, type GrantContext, machineGrant, refresh } from './grants.ts';
import { clientFor } from './registration.ts';
import {
  type AuthStore,
  authKeys,
  type IssuerRecord,
  type ResourceRecord,
  sharedAuthStore,
  type TokenRecord,
} from './store.ts';
import type { OAuthOptions } from './types.ts';

/** A token this close to its expiry is refreshed before it is sent. */
const EXPIRY_MARGIN_MS = 30_000;
/** New tokens one request may ask for after 401s before the refusal stands. */
const MAX_RENEWALS = 2;
/** DPoP nonces one request may be sent again for. */
const MAX_NONCE_RETRIES = 2;
/** How long a shared store's lock may be held by a process that died mid-renewal. */
const LOCK_TTL_MS = 120_000;

interface Where {
  resource: ResourceRecord;
  issuer: IssuerRecord;
}

/** What one request went through: the token it carried and the renewals it caused. */
interface Attempt {
  token: string | undefined;
  renewals: number;
  stepUps: number;
  nonces: number;
}

export class OAuthSession implements RequestGate {
  readonly #serverUrl: URL;
  readonly #options: OAuthOptions;
  readonly #store: AuthStore;
  readonly #fetch: AuthFetch;
  #where: Where | undefined;
  #tokens: TokenRecord | undefined;
  #dpop: DPoPKey | undefined;
  #loaded = false;
  /** The challenge of the last refusal: its scope and metadata URL guide the next authorization. */
  #challenge: Challenge | undefined;
  readonly #attempts = new WeakMap<HttpRequest, Attempt>();

  constructor(serverUrl: string, options: OAuthOptions, dispatcher: Dispatcher, maxBytes: number) {
    this.#serverUrl = new URL(serverUrl);
    this.#options = options;
    this.#store = options.store ?? sharedAuthStore;
    this.#fetch = fetchOver(dispatcher, maxBytes);
  }

  async headers(request: HttpRequest): Promise<Record<string, string>> {
    const attempt = this.#attempt(request);
    const tokens = await this.#current(request.signal);
    attempt.token = tokens?.accessToken;
    if (!tokens) return {};
    if (tokens.tokenType === 'DPoP' && this.#dpop) {
      return proofHeaders(this.#dpop, tokens.accessToken, request.method, request.url);
    }
    return { authorization: `Bearer ${tokens.accessToken}` };
  }

  async refused(request: HttpRequest, response: Refusal): Promise<boolean> {
    const attempt = this.#attempt(request);
    const challenges = parseChallenges(response.header('www-authenticate'));
    const challenge = oauthChallenge(challenges);
    if (response.status === 403) {
      if (challenge?.params['error'] !== 'insufficient_scope') return false;
      if (attempt.stepUps >= (this.#options.maxStepUps ?? 2)) {
        throw new AuthorizationError(
          'insufficient_scope',
          `the server still asks for scopes ${challenge.params['scope'] ?? ''} after ${attempt.stepUps} step-ups`,
          { url: request.url, status: 403 },
        );
      }
      attempt.stepUps++;
      this.#challenge = challenge;
      await this.#renew(request.signal, { stepUp: challengedScopes(challenge) ?? [] });
      return true;
    }
    // 401. A DPoP server that wants a nonce first: keep it and send again.
    const nonce = response.header('dpop-nonce');
    const wantsNonce = challenges.some(
      (c) => c.scheme === 'dpop' && c.params['error'] === 'use_dpop_nonce',
    );
    if (wantsNonce && nonce && this.#dpop && attempt.nonces < MAX_NONCE_RETRIES) {
      attempt.nonces++;
      keepNonce(this.#dpop, nonce, request.url);
      return true;
    }
    if (challenge) this.#challenge = challenge;
    // Another request renewed the token while this one was out: send it again with the new one.
    if (attempt.token !== undefined && attempt.token !== this.#tokens?.accessToken) return true;
    if (attempt.renewals >= MAX_RENEWALS) {
      throw new AuthorizationError('rejected', 'the server refused the new credentials', {
        url: request.url,
        status: 401,
      });
    }
    attempt.renewals++;
    await this.#renew(request.signal, { rejected: attempt.token });
    return true;
  }

  #attempt(request: HttpRequest): Attempt {
    let attempt = this.#attempts.get(request);
    if (!attempt) {
      attempt = { token: undefined, renewals: 0, stepUps: 0, nonces: 0 };
      this.#attempts.set(request, attempt);
    }
    return attempt;
  }

  /** The token to send: from memory or the store, refreshed first when it is about to expire. */
  async #current(signal: AbortSignal): Promise<TokenRecord | undefined> {
    if (!this.#loaded) await this.#load();
    const tokens = this.#tokens;
    if (!tokens || tokens.expiresAt === undefined) return tokens;
    if (tokens.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return tokens;
    // Expiring: a refresh token or a machine grant renews it now; a user would be asked only
    // once the server refuses it.
    if (tokens.refreshToken === undefined && !this.#options.grant) return tokens;
    await this.#renew(signal, { expired: tokens.accessToken });
    return this.#tokens;
  }

  /** What an earlier client for this server left in the store: no request needed at all. */
  async #load(): Promise<void> {
    this.#loaded = true;
    const resource = (await this.#store.get(authKeys.resource(this.#serverUrl.href))) as
      | ResourceRecord
      | undefined;
    const issuerName = resource?.authorizationServers[0];
    if (!resource || issuerName === undefined) return;
    const issuer = (await this.#store.get(authKeys.issuer(issuerName))) as IssuerRecord | undefined;
    if (!issuer) return;
    this.#where = { resource, issuer };
    await this.#adopt((await this.#store.get(this.#tokensKey())) as TokenRecord | undefined);
  }

  async #adopt(tokens: TokenRecord | undefined): Promise<void> {
    this.#tokens = tokens;
    this.#dpop = tokens?.dpopKey ? await restoreDPoPKey(tokens.dpopKey) : undefined;
  }

  #tokensKey(where: Where | undefined = this.#where): string {
    return where ? authKeys.tokens(where.issuer.issuer, where.resource.resource) : '';
  }

  /**
   * New tokens, once for every request that needs them: after a 401 (`rejected`: the token it
   * carried), before expiry (`expired`), or for a step-up (`stepUp`: the scopes challenged).
   */
  #renew(
    signal: AbortSignal,
    why: { rejected?: string | undefined; expired?: string; stepUp?: string[] },
  ): Promise<void> {
    const kind = why.stepUp ? `step-up ${why.stepUp.join(' ')}` : 'renew';
    return shared(this.#store, `${kind} ${this.#serverUrl.href}`, signal, async (flightSignal) => {
      const context: DiscoveryContext = {
        serverUrl: this.#serverUrl,
        fetch: this.#fetch,
        signal: flightSignal,
      };
      // Expiry needs no discovery; a refusal does: the server may point elsewhere now.
      if (why.expired === undefined || !this.#where) await this.#discover(context);
      const key = this.#tokensKey();
      const release = await this.#store.lock?.(key, { ttlMs: LOCK_TTL_MS, signal: flightSignal });
      try {
        // Another process (or client) may have renewed while this one waited for the lock.
        const stored = (await this.#store.get(key)) as TokenRecord | undefined;
        const stale = why.rejected ?? why.expired;
        if (!why.stepUp && stored && stored.accessToken !== stale && stale !== undefined) {
          await this.#adopt(stored);
          return;
        }
        await this.#adopt(stored);
        await this.#obtain(context, why);
      } finally {
        await release?.();
      }
    });
  }

  /** The protected-resource and authorization-server metadata, found again and stored. */
  async #discover(context: DiscoveryContext): Promise<void> {
    const found = await discoverResource(context, this.#challenge?.params['resource_metadata']);
    // A 2025-03-26 server publishes none: its own origin is the authorization server.
    const resource: ResourceRecord = found ?? {
      resource: this.#serverUrl.href,
      authorizationServers: [this.#serverUrl.origin],
    };
    const issuerName = resource.authorizationServers[0]!;
    const known =
      this.#where?.issuer.issuer === issuerName ||
      this.#where?.resource.authorizationServers[0] === issuerName
        ? this.#where.issuer
        : undefined;
    const issuer = known ?? (await discoverIssuer(context, issuerName, found === undefined));
    await this.#store.set(authKeys.resource(this.#serverUrl.href), resource);
    await this.#store.set(authKeys.issuer(issuerName), issuer);
    const moved = this.#where && this.#tokensKey() !== this.#tokensKey({ resource, issuer });
    this.#where = { resource, issuer };
    // Tokens of another authorization server never go to this one.
    if (moved)
      await this.#adopt((await this.#store.get(this.#tokensKey())) as TokenRecord | undefined);
  }

  /** A refresh when one can do, else a new grant; `invalid_grant` falls back to one new grant. */
  async #obtain(
    context: DiscoveryContext,
    why: { rejected?: string | undefined; expired?: string; stepUp?: string[] },
  ): Promise<void> {
    const where = this.#where!;
    const as = where.issuer.metadata as unknown as oauth.AuthorizationServer;
    const previous = this.#tokens;
    if (!why.stepUp && previous?.refreshToken !== undefined) {
      try {
        const grant = await this.#grantContext(context, as, previous.scopes, this.#dpop);
        await this.#save(await refresh(grant, previous.refreshToken), this.#dpop);
        return;
      } catch (error) {
        // A refresh token that was revoked, expired or spent: one new authorization, no loop.
        if (oauthErrorOf(error) !== 'invalid_grant') throw error;
        await this.#store.delete(this.#tokensKey());
        this.#tokens = undefined;
      }
    }
    const scopes = this.#scopes(as, why.stepUp ? (previous?.scopes ?? []) : undefined, why.stepUp);
    const dpop = this.#wantsDPoP(as) ? await newDPoPKey() : undefined;
    const grant = await this.#grantContext(context, as, scopes, dpop);
    const options = this.#options;
    if (options.grant) {
      await this.#save(await machineGrant(grant, options.grant), dpop);
      return;
    }
    if (!options.authorize || options.redirectUri === undefined) {
      throw new AuthorizationError(
        'interaction_required',
        'the server asks for a user authorization, and no `auth.authorize` callback and `auth.redirectUri` were given',
        { url: this.#serverUrl.href },
      );
    }
    const redirectUri = await this.#redirectUri();
    await this.#save(await authorizationCode(grant, options.authorize, redirectUri!), dpop);
  }

  async #grantContext(
    context: DiscoveryContext,
    as: oauth.AuthorizationServer,
    scopes: string[],
    dpop: DPoPKey | undefined,
  ): Promise<GrantContext> {
    const identity = await clientFor(as, {
      ...context,
      options: this.#options,
      store: this.#store,
      redirectUri: () => this.#redirectUri(),
    });
    return {
      ...context,
      as,
      identity,
      resource: this.#where!.resource.resource,
      scopes,
      dpop: dpop?.handle,
    };
  }

  async #redirectUri(): Promise<string | undefined> {
    const given = this.#options.redirectUri;
    if (this.#options.grant || given === undefined) return undefined;
    return typeof given === 'function' ? await given() : given;
  }

  async #save(tokens: TokenRecord, dpop: DPoPKey | undefined): Promise<void> {
    const record: TokenRecord = dpop ? { ...tokens, dpopKey: dpop.jwk } : tokens;
    await this.#store.set(this.#tokensKey(), record);
    this.#tokens = record;
    this.#dpop = dpop;
  }

  /**
   * The scopes to ask for: the option's; else the challenge's, else all the server supports,
   * else none; a step-up adds the challenged ones to those asked before. `offline_access` only
   * where the authorization server lists it, and only for a user's authorization.
   */
  #scopes(
    as: oauth.AuthorizationServer,
    before: string[] | undefined,
    challenged?: string[],
  ): string[] {
    const chosen = (
      this.#options.scopes ??
      (challenged
        ? [...new Set([...(before ?? []), ...challenged])]
        : (challengedScopes(this.#challenge) ?? this.#where?.resource.scopesSupported ?? []))
    ).filter((scope) => scope !== 'offline_access');
    const offline =
      !this.#options.grant &&
      this.#options.offlineAccess !== false &&
      as.scopes_supported?.includes('offline_access') === true;
    return offline && chosen.length > 0 && !chosen.includes('offline_access')
      ? [...chosen, 'offline_access']
      : chosen;
  }

  /** DPoP when asked for, or (auto) when the server's challenge offers it and the AS supports it. */
  #wantsDPoP(as: oauth.AuthorizationServer): boolean {
    const choice = this.#options.dpop ?? 'auto';
    if (choice !== 'auto') return choice;
    const algorithms = as.dpop_signing_alg_values_supported;
    return (
      this.#challenge?.scheme === 'dpop' &&
      Array.isArray(algorithms) &&
      algorithms.includes('ES256')
    );
  }
}
