/**
 * One GET of a discovery document (a catalog, a card, a registry page): bounded, through a
 * dispatcher (the caller's, or an Agent owned and closed by the discovery call), under a
 * timeout, revalidated from the cache. Redirects are followed on the same origin only: a host
 * never sends the client elsewhere without the caller seeing it.
 */
import type { Dispatcher } from 'undici';
import {
  AbortedError,
  DiscoveryError,
  HttpStatusError,
  isMcpError,
  TimeoutError,
} from '../core/errors.ts';
import { abandon, createAgent, discard, excerpt, readText, send } from '../wire/transport/http.ts';
import { type DocumentCache, freshFor, mayStore } from './cache.ts';

/** Options every discovery call takes. */
export interface FetchOptions {
  /** Requests go through it; else an Agent made for the call and closed after it. */
  dispatcher?: Dispatcher | undefined;
  /** The most a document may be, in bytes (1 MiB). */
  maxResponseBytes?: number | undefined;
  /** How long one request may take, in ms (10 s). */
  timeoutMs?: number | undefined;
  /** Where documents are kept between calls (ETag, Cache-Control); none by default. */
  cache?: DocumentCache | undefined;
  signal?: AbortSignal | undefined;
}

/** What a fetch found: the body, or nothing there (404, 410). */
export type Fetched = { found: true; body: string; url: string } | { found: false; status: number };

const MAX_REDIRECTS = 3;

/** Runs `work` with a dispatcher: the caller's, or one made now and closed when it settles. */
export async function withDispatcher<T>(
  options: FetchOptions,
  work: (dispatcher: Dispatcher) => Promise<T>,
): Promise<T> {
  if (options.dispatcher) return work(options.dispatcher);
  const agent = createAgent(options.timeoutMs ?? 10_000);
  try {
    return await work(agent);
  } finally {
    await agent.close();
  }
}

/** GETs `url` accepting `accept`; a document kind names it in errors (`card`, `catalog`). */
export async function fetchDocument(
  dispatcher: Dispatcher,
  url: string,
  accept: string,
  document: string,
  options: FetchOptions,
): Promise<Fetched> {
  const cached = options.cache?.get(url);
  if (cached && cached.freshUntil > Date.now()) return { found: true, body: cached.body, url };
  const timeoutMs = options.timeoutMs ?? 10_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    return await fetchFresh(dispatcher, url, accept, document, options, signal);
  } catch (error) {
    if (isMcpError(error)) throw error;
    // The signal's own reason is a DOMException: the caller gets a typed error instead.
    if (options.signal?.aborted) throw new AbortedError({ url, cause: error });
    if (timeout.aborted) throw new TimeoutError(timeoutMs, { url, cause: error });
    throw error;
  }
}

async function fetchFresh(
  dispatcher: Dispatcher,
  url: string,
  accept: string,
  document: string,
  options: FetchOptions,
  signal: AbortSignal,
): Promise<Fetched> {
  const cached = options.cache?.get(url);
  const limit = options.maxResponseBytes ?? 1024 * 1024;
  let at = url;
  for (let hop = 0; ; hop++) {
    const headers: Record<string, string> = { accept };
    if (cached?.etag && at === url) headers['if-none-match'] = cached.etag;
    const response = await send(dispatcher, { url: at, method: 'GET', headers, signal });
    const status = response.status;
    if (status === 304 && cached) {
      discard(response);
      const cacheControl = response.header('cache-control');
      options.cache?.set(url, { ...cached, freshUntil: Date.now() + freshFor(cacheControl) });
      return { found: true, body: cached.body, url };
    }
    if (status >= 300 && status < 400) {
      discard(response);
      const location = response.header('location');
      const next = location && URL.canParse(location, at) ? new URL(location, at) : undefined;
      if (!next || next.origin !== new URL(at).origin || hop === MAX_REDIRECTS) {
        // The target is named only by origin: a redirect's query may carry anything.
        throw new DiscoveryError(
          document,
          `redirected ${next ? `to ${next.origin}` : 'without a usable Location'}, not followed`,
          { url: at, status },
        );
      }
      at = next.href;
      continue;
    }
    if (status === 404 || status === 410) {
      discard(response);
      return { found: false, status };
    }
    if (status !== 200) {
      const text = await readText(response, 4096, at, signal).catch(() => '');
      throw new HttpStatusError(status, { url: at, bodyExcerpt: excerpt(text) });
    }
    if (!/json/.test(response.mediaType)) {
      abandon(response);
      throw new DiscoveryError(document, `not JSON (${response.mediaType || 'no content type'})`, {
        url: at,
        status,
      });
    }
    const body = await readText(response, limit, at, signal);
    const cacheControl = response.header('cache-control');
    if (options.cache && mayStore(cacheControl)) {
      const etag = response.header('etag');
      options.cache.set(url, { body, etag, freshUntil: Date.now() + freshFor(cacheControl) });
    }
    return { found: true, body, url: at };
  }
}

/** The body as JSON, or a DiscoveryError naming the document. */
export function parseJson(body: string, document: string, url: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new DiscoveryError(document, 'not valid JSON', { url, bodyExcerpt: excerpt(body) });
  }
}
