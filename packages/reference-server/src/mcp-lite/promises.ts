/**
 * Promise tokens (MCP-lite §3.5): globally unique, unguessable, time-bounded and opaque. The only
 * state an MCP-lite server keeps. A token is ready after `polls` more redeems (tests free of
 * clocks) or at `readyAt` (real long-running work); a redeem before then is answered with the
 * same token and a fresh `estimated_completion`. A token past its TTL is unknown.
 */
import { randomBytes } from 'node:crypto';
import type { JsonObject } from '../jsonrpc.ts';
import type { LiteRedeem } from '../types.ts';

const DEFAULT_TTL_MS = 10 * 60 * 1000;
/** How far ahead a token that waits on redeems says it will be ready. */
const POLL_ESTIMATE_MS = 50;

interface Pending {
  result: JsonObject;
  pollsLeft: number;
  readyAt: number;
  expiresAt: number;
  /** The `estimated_completion` last handed out for it, epoch milliseconds. */
  announced: number;
}

export interface PromiseTerms {
  /** Redeems that still wait. */
  polls?: number;
  /** Milliseconds until the result is ready. */
  readyInMs?: number;
  /** Milliseconds the token stays valid. */
  ttlMs?: number;
}

/** A redeem that came too early: ask again at `due` (milliseconds since the epoch). */
export interface Wait {
  due: number;
}

export class PromiseStore {
  /** Every redeem, as tests observe it. */
  readonly redeems: LiteRedeem[] = [];
  readonly #pending = new Map<string, Pending>();

  /** Issues a token for `result`; returns it with when to ask (`due`, epoch milliseconds). */
  issue(result: JsonObject, terms: PromiseTerms = {}): { token: string; due: number } {
    const token = `prom_${randomBytes(16).toString('hex')}`;
    const now = Date.now();
    const pending: Pending = {
      result,
      pollsLeft: terms.polls ?? 0,
      readyAt: now + (terms.readyInMs ?? 0),
      expiresAt: now + (terms.ttlMs ?? DEFAULT_TTL_MS),
      announced: 0,
    };
    pending.announced = dueOf(pending, now);
    this.#pending.set(token, pending);
    return { token, due: pending.announced };
  }

  /** The result, a Wait while it is not ready, or undefined for an unknown or expired token. */
  redeem(token: string): JsonObject | Wait | undefined {
    const now = Date.now();
    const pending = this.#pending.get(token);
    this.redeems.push({ token, at: now, due: pending?.announced });
    if (!pending || pending.expiresAt < now) {
      this.#pending.delete(token);
      return undefined;
    }
    if (pending.pollsLeft > 0 || pending.readyAt > now) {
      if (pending.pollsLeft > 0) pending.pollsLeft -= 1;
      pending.announced = dueOf(pending, now);
      return { due: pending.announced };
    }
    this.#pending.delete(token);
    return pending.result;
  }

  clear(): void {
    this.#pending.clear();
  }
}

/** When a token will be ready, as announced in `estimated_completion`. */
function dueOf(pending: Pending, now: number): number {
  return pending.pollsLeft > 0 ? now + POLL_ESTIMATE_MS : Math.max(pending.readyAt, now);
}
