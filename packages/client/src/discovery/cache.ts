/**
 * What discovery keeps of the documents it read, by URL: the body, its ETag and how long
 * Cache-Control lets it be used without asking. Fresh: no request. Stale with an ETag: asked
 * again with If-None-Match, and a 304 keeps the body. Kept only where the caller gives a cache
 * (a Map will do), so a one-off discovery holds nothing.
 */

export interface CachedDocument {
  body: string;
  etag?: string | undefined;
  /** When (epoch ms) the body stops being fresh; 0: ask again every time. */
  freshUntil: number;
}

/** Where documents are kept; a Map is one. Shared by calls that are given the same one. */
export interface DocumentCache {
  get(url: string): CachedDocument | undefined;
  set(url: string, document: CachedDocument): unknown;
}

/**
 * How long a response may be used without asking again, from its Cache-Control: `max-age`
 * seconds; none for `no-store`, `no-cache` or no header (it may still be revalidated by ETag).
 */
export function freshFor(cacheControl: string | undefined): number {
  if (!cacheControl) return 0;
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((part) => part.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) return 0;
  const maxAge = directives.find((d) => d.startsWith('max-age='));
  const seconds = maxAge ? Number(maxAge.slice('max-age='.length)) : 0;
  // A day at most: a hostile host cannot pin a card in a long-lived process.
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 86_400) * 1000 : 0;
}

/** Whether Cache-Control forbids keeping the response at all. */
export function mayStore(cacheControl: string | undefined): boolean {
  return !cacheControl?.toLowerCase().includes('no-store');
}
