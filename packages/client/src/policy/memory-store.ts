/**
 * The policy store of one client when none is given: a sliding window of starts, the hold, and
 * results kept as JSON (each caller gets a copy of its own), all in this process.
 */
import type { CallToolResult } from '../core/types.ts';
import type { CallRate, PolicyStore, TakenStart } from './types.ts';

/** How many results one process keeps at most: each may be as large as a response may be. */
const MAX_RESULTS = 1_000;

export function memoryPolicyStore(): PolicyStore {
  const starts = new Map<string, number[]>();
  const holds = new Map<string, number>();
  const results = new Map<string, { json: string; until: number }>();
  return {
    async take(server: string, rate: CallRate | undefined): Promise<TakenStart> {
      const now = Date.now();
      const heldUntil = holds.get(server) ?? 0;
      if (heldUntil > now) return { waitMs: heldUntil - now, held: true };
      if (!rate) return { waitMs: 0, held: false };
      const window = starts.get(server) ?? [];
      starts.set(server, window);
      while (window.length > 0 && window[0]! <= now - rate.intervalMs) window.shift();
      if (window.length >= rate.requests) {
        return { waitMs: window[0]! + rate.intervalMs - now, held: false };
      }
      window.push(now);
      return { waitMs: 0, held: false };
    },
    async hold(server: string, untilMs: number): Promise<void> {
      holds.set(server, Math.max(holds.get(server) ?? 0, untilMs));
    },
    async result(key: string): Promise<CallToolResult | undefined> {
      const kept = results.get(key);
      if (!kept) return undefined;
      if (kept.until <= Date.now()) {
        results.delete(key);
        return undefined;
      }
      return JSON.parse(kept.json) as CallToolResult;
    },
    async keepResult(key: string, result: CallToolResult, ttlMs: number): Promise<void> {
      const now = Date.now();
      // Results no one asks for again would stay for ever: the stale ones go as new ones come,
      // and past the bound the oldest kept go too (a Map keeps the order they came in).
      if (results.size >= MAX_RESULTS) {
        for (const [old, kept] of results) if (kept.until <= now) results.delete(old);
        for (const old of results.keys()) {
          if (results.size < MAX_RESULTS) break;
          results.delete(old);
        }
      }
      results.delete(key);
      results.set(key, { json: JSON.stringify(result), until: now + ttlMs });
    },
  };
}
