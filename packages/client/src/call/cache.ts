/**
 * Results kept while they are fresh. Freshness is checked when a result is wanted, never by a
 * timer (a TTL is not a polling interval). Concurrent callers share one request; a failed
 * request is not kept. The cache belongs to one client, and so to one set of credentials, which
 * keeps `private` results apart as the spec asks.
 */
/** What a load gives: the value, how long it stays fresh, and the ETag it came with, if any. */
export interface Loaded<T> {
  value: T;
  freshForMs: number;
  /** The server's validator: the next load may ask whether the value is still current. */
  etag?: string | undefined;
}

interface Entry {
  value: Promise<unknown>;
  freshUntil: number;
  loaded?: Loaded<unknown>;
}

export class ResultCache {
  readonly #entries = new Map<string, Entry>();

  /**
   * The fresh value for `key`, or a new one from `load`, which says how long it stays fresh.
   * `load` is handed what was loaded before when that came with an ETag: it may revalidate it
   * (a 304) and hand it back rather than fetch it all again.
   */
  get<T>(
    key: string,
    load: (kept: Loaded<T> | undefined) => Promise<Loaded<T>>,
    refresh = false,
  ): Promise<T> {
    const entry = this.#entries.get(key);
    if (entry && !refresh && performance.now() < entry.freshUntil) return entry.value as Promise<T>;
    const kept = entry?.loaded?.etag === undefined ? undefined : (entry.loaded as Loaded<T>);
    const loading = load(kept);
    // While it loads, everyone shares it; once loaded, it is fresh for as long as the server said.
    const record: Entry = {
      value: loading.then((loaded) => loaded.value),
      freshUntil: Number.POSITIVE_INFINITY,
    };
    this.#entries.set(key, record);
    loading.then(
      (loaded) => {
        record.loaded = loaded;
        if (this.#entries.get(key) === record)
          record.freshUntil = performance.now() + loaded.freshForMs;
      },
      () => {
        if (this.#entries.get(key) === record) this.#entries.delete(key);
      },
    );
    return record.value as Promise<T>;
  }

  /** What `peek` would resolve with, when it already has: a lookup without a turn of the loop. */
  peekLoaded<T>(key: string): T | undefined {
    return this.#entries.get(key)?.loaded?.value as T | undefined;
  }

  /** Whatever is kept for `key`, fresh or not: enough to look something up, not to hand out. */
  peek<T>(key: string): Promise<T> | undefined {
    return this.#entries.get(key)?.value as Promise<T> | undefined;
  }

  /** Drops the entries whose key starts with `prefix` (all of them without one). */
  drop(prefix = ''): void {
    for (const key of this.#entries.keys()) if (key.startsWith(prefix)) this.#entries.delete(key);
  }
}
