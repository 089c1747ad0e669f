import type { JsonObject } from '../core/jsonrpc.ts';

/**
 * What negotiation learned about a server, kept so that the next client for the same server skips
 * the probes. Keyed by endpoint URL, or for a local server by a digest of its command line.
 */

/**
 * What a probe learned about a server: the dialect it speaks and the revision agreed. A verdict
 * that names no dialect the client has (one kept by an older client, `{ era, transport }`) is
 * dropped and the server probed again.
 */
export interface Verdict {
  /** The dialect's name, as `client.dialect` reports it. */
  dialect: string;
  /** The MCP revision agreed, or the dialect's own (MCP-lite's) or the webtool's version. */
  version: string;
  /**
   * A modern server's `server/discover` answer, kept while the server allows (`ttlMs`, public
   * `cacheScope`): until `freshUntil` (ISO 8601) the next client for the URL sends no probe.
   */
  discovered?: JsonObject;
  freshUntil?: string;
}

/**
 * Where verdicts are kept. Each client has its own in memory unless given one: one store passed
 * to several clients (or a shared one, on Redis say) lets them share what each learned.
 */
export interface VerdictStore {
  get(url: string): Verdict | undefined | Promise<Verdict | undefined>;
  set(url: string, verdict: Verdict): void | Promise<void>;
  delete(url: string): void | Promise<void>;
}

export function memoryVerdictStore(): VerdictStore {
  const verdicts = new Map<string, Verdict>();
  return {
    get: (url) => verdicts.get(url),
    set: (url, verdict) => void verdicts.set(url, verdict),
    delete: (url) => void verdicts.delete(url),
  };
}
