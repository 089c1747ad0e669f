/**
 * Results kept while they are fresh. Freshness is checked when a result is wanted, never by a
 * timer (a TTL is not a polling interval). Concurrent callers share one request; a failed
 * request is not kept. The cache belongs to one client, and so to one set of credentials, which
 * keeps `private` results apart as the spec asks.
 */
export class ResultCache {
  readonly #entries = new Map<
    string,
    { value: Promise<unknown>; freshUntil: number; loaded?: { value: unknown } }
  >();

  /** The fresh value for `key`, or a new one from `load`, which says how long it stays fresh. */
  get<T>(
    key: string,
    load: () => Promise<{ value: T; freshForMs: number }>,
    refresh = false,
  ): Promise<T> {
    const entry = this.#entries.get(key);
    if (entry && !refresh && performance.now() < entry.freshUntil) return entry.value as Promise<T>;
    const loading = load();
    // While it loads, everyone shares it; once loaded, it is fresh for as long as the server said.
    const record: { value: Promise<unknown>; freshUntil: number; loaded?: { value: unknown } } = {
      value: loading.then((loaded) => loaded.value),
      freshUntil: Number.POSITIVE_INFINITY,
    };
    this.#entries.set(key, record);
    loading.then(
      (loaded) => {
        record.loaded = { value: loaded.value };
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
