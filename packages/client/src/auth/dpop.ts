/**
 * DPoP (RFC 9449): one key pair per set of tokens, kept with them in the store (a bound token is
 * worth nothing without its key), and a fresh proof on every request to the server, with the
 * server's nonce when it asked for one.
 */
import type { webcrypto } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import type { JsonObject } from '../core/jsonrpc.ts';

/**
 * The handle's own proof and nonce methods: the ones oauth4webapi's protectedResourceRequest
 * calls. The client sends its requests itself, so it calls them directly (oauth4webapi is pinned
 * to one version, whose handle this relies on).
 */
interface ProofHandle extends oauth.DPoPHandle {
  addProof(url: URL, headers: Headers, method: string, accessToken?: string): Promise<void>;
  cacheNonce(response: { headers: Headers }, url: URL): void;
}

export interface DPoPKey {
  handle: oauth.DPoPHandle;
  /** The key pair as JWKs (the private one included), to keep beside the token. */
  jwk: JsonObject;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** A new P-256 key for DPoP proofs (ES256). */
export async function newDPoPKey(): Promise<DPoPKey> {
  const pair = await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonObject;
  return { handle: oauth.DPoP({}, pair), jwk };
}

/** The key a stored token was bound to. */
export async function restoreDPoPKey(jwk: JsonObject): Promise<DPoPKey> {
  const privateKey = await crypto.subtle.importKey('jwk', jwk, ALGORITHM, true, ['sign']);
  const { d: _d, key_ops: _ops, ...publicJwk } = jwk as webcrypto.JsonWebKey & JsonObject;
  const publicKey = await crypto.subtle.importKey('jwk', publicJwk, ALGORITHM, true, ['verify']);
  return { handle: oauth.DPoP({}, { privateKey, publicKey }), jwk };
}

/** The Authorization and DPoP headers for one request with a DPoP-bound token. */
export async function proofHeaders(
  key: DPoPKey,
  accessToken: string,
  method: string,
  url: string,
): Promise<Record<string, string>> {
  const headers = new Headers();
  await (key.handle as ProofHandle).addProof(new URL(url), headers, method, accessToken);
  return { authorization: `DPoP ${accessToken}`, dpop: headers.get('dpop') ?? '' };
}

/** Keeps the nonce a server sent (`DPoP-Nonce`) for the next proof to that origin. */
export function keepNonce(key: DPoPKey, nonce: string, url: string): void {
  (key.handle as ProofHandle).cacheNonce(
    { headers: new Headers({ 'dpop-nonce': nonce }) },
    new URL(url),
  );
}
