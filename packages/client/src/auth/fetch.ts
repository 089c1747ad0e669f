/**
 * The fetch oauth4webapi is given: requests to the authorization server go over the client's own
 * dispatcher (so `close()` leaves no socket behind), never follow redirects, and read at most
 * `maxResponseBytes` of a body.
 */
import type { Dispatcher } from 'undici';
import { callHeaders, readText, send } from '../transport/http.ts';

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
    return new Response(NO_BODY.has(status) ? null : text, { status, headers });
  };
}
