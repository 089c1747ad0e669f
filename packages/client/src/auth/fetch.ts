/**
 * The fetch oauth4webapi is given: requests to the authorization server go over the client's own
 * dispatcher (so `close()` leaves no socket behind), never follow redirects, and read at most
 * `maxResponseBytes` of a body. An error answer never gives back the credentials its request
 * carried: a server that echoes them (in `error_description`, say) would put them in the error
 * the application logs.
 */
import type { Dispatcher } from 'undici';
import { callHeaders, readText, send } from '../wire/transport/http.ts';

/** The headers of an authorization server's answer that anything here reads. */
const KEPT_HEADERS = [
  'content-type',
  'www-authenticate',
  'dpop-nonce',
  'location',
  'cache-control',
];

/** Statuses whose Response must not have a body. */
const NO_BODY = new Set([101, 204, 205, 304]);

/** Body parameters that carry a credential (RFC 6749, RFC 7636, RFC 7521, RFC 8693). */
const CREDENTIAL_PARAMETERS = new Set([
  'client_secret',
  'client_assertion',
  'code',
  'code_verifier',
  'refresh_token',
  'assertion',
  'subject_token',
  'actor_token',
  'password',
]);

/** Shorter values are not worth hiding, and replacing them would garble the rest. */
const SHORTEST_CREDENTIAL = 4;

export type AuthFetch = (url: string, init: RequestInit) => Promise<Response>;

export function fetchOver(dispatcher: Dispatcher, maxResponseBytes: number): AuthFetch {
  return async (url, init) => {
    const signal = init.signal ?? new AbortController().signal;
    const method = (init.method ?? 'GET').toUpperCase() as 'GET' | 'POST';
    // Outside the call's context: headers a call adds are for the MCP server, never for this one.
    const response = await callHeaders.exit(() =>
      send(dispatcher, {
        url,
        method,
        headers: { ...(init.headers as Record<string, string> | undefined) },
        ...(init.body === undefined || init.body === null ? {} : { body: String(init.body) }),
        signal,
      }),
    );
    const text = await readText(response, maxResponseBytes, url, signal);
    const headers = new Headers();
    for (const name of KEPT_HEADERS) {
      const value = response.header(name);
      if (value !== undefined) headers.set(name, value);
    }
    const status = response.status < 200 || response.status > 599 ? 502 : response.status;
    const credentials = status >= 300 ? credentialsOf(init) : [];
    for (const name of ['www-authenticate', 'location']) {
      const value = headers.get(name);
      if (value !== null && credentials.length > 0) headers.set(name, redact(value, credentials));
    }
    const body = credentials.length > 0 ? redact(text, credentials) : text;
    return new Response(NO_BODY.has(status) ? null : body, { status, headers });
  };
}

/** The credentials a request carries: its Authorization header and credential parameters. */
function credentialsOf(init: RequestInit): string[] {
  const found = new Set<string>();
  const headers = (init.headers ?? {}) as Record<string, string>;
  const authorization = Object.entries(headers).find(
    ([name]) => name.toLowerCase() === 'authorization',
  )?.[1];
  if (authorization) {
    found.add(authorization);
    const value = authorization.slice(authorization.indexOf(' ') + 1).trim();
    found.add(value);
    if (/^basic /i.test(authorization)) {
      // `client_id:client_secret`, each form-encoded (RFC 6749 §2.3.1).
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      found.add(decoded);
      const secret = decoded.slice(decoded.indexOf(':') + 1);
      found.add(secret);
      found.add(formDecoded(secret));
    }
  }
  if (typeof init.body === 'string' || init.body instanceof URLSearchParams) {
    for (const [name, value] of new URLSearchParams(init.body)) {
      if (CREDENTIAL_PARAMETERS.has(name)) found.add(value);
    }
  }
  // Longest first: a secret inside the header that carries it goes with the header.
  return [...found]
    .filter((value) => value.length >= SHORTEST_CREDENTIAL)
    .sort((a, b) => b.length - a.length);
}

function formDecoded(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** `text` with each credential, as it is and as JSON or a URL would escape it, replaced. */
function redact(text: string, credentials: readonly string[]): string {
  let redacted = text;
  for (const credential of credentials) {
    const forms = new Set([
      JSON.stringify(credential).slice(1, -1),
      credential,
      encodeURIComponent(credential),
    ]);
    for (const form of forms) redacted = redacted.split(form).join('[redacted]');
  }
  return redacted;
}
