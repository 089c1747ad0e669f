/**
 * The `policy` option: how calls to one server are paced (slots, a rate, a server's 429) and
 * which results are worth reusing, and the store that shares both across workers.
 */
import type { CallToolResult } from '../core/types.ts';

/** At most `requests` calls started per `intervalMs`. */
export interface CallRate {
  requests: number;
  intervalMs: number;
}

/** Which results are reused, and for how long. */
export interface ReuseOptions {
  /** How long a result is reused, in milliseconds. */
  ttlMs: number;
  /**
   * Tools whose results are reused whatever they declare. Without it, only tools the server marks
   * `readOnlyHint` and `idempotentHint` are.
   */
  tools?: readonly string[];
  /**
   * Whose results these are. Results are shared by every client on the same store (every worker,
   * with `@toolwire/redis`) and partition: clients that act for different users, or hold
   * different credentials, give each its own, so one user's result never reaches another.
   * @default '' (one partition for every client on the store)
   */
  partition?: string;
}

export interface CallPolicy {
  /** At most this many calls in flight to the server; the others wait their turn, in order. */
  concurrency?: number;
  /** At most `requests` calls started per `intervalMs`. */
  rate?: CallRate;
  /** Reuse the results of read-only, idempotent tools (or those named) for `ttlMs`. */
  reuse?: ReuseOptions | false;
  /**
   * Where the rate's window, a 429's hold and reused results are kept: one store given to clients
   * in several processes (`@toolwire/redis`) paces and reuses for all of them. A store with
   * slots (`acquireSlot`, as Redis's has) holds `concurrency` across all of them too.
   * @default a new in-memory store for this client
   */
  store?: PolicyStore;
}

/** What `PolicyStore.take` decided: start now (`waitMs` 0), or ask again after `waitMs`. */
export interface TakenStart {
  waitMs: number;
  /** The wait is a server's 429, not the rate. */
  held: boolean;
}

/** Rate windows, holds and reused results, for every client given the store. */
export interface PolicyStore {
  /** One start of a call to `server` within `rate` (none without), unless a hold says wait. */
  take(server: string, rate: CallRate | undefined): Promise<TakenStart>;
  /** No call to `server` starts before `untilMs` (epoch ms); a later hold already set stands. */
  hold(server: string, untilMs: number): Promise<void>;
  /** The result kept under `key`, while its time to live lasts. */
  result(key: string): Promise<CallToolResult | undefined>;
  keepResult(key: string, result: CallToolResult, ttlMs: number): Promise<void>;
  /**
   * One of `limit` slots for calls to `server`, shared by every client given the store: the
   * lease's id, or undefined while all are taken. A lease not released within `leaseMs` is
   * taken back, so a worker that dies holds no slot for ever. A store without it (the memory
   * store) leaves `concurrency` to each client alone.
   */
  acquireSlot?(server: string, limit: number, leaseMs: number): Promise<string | undefined>;
  /** Gives a slot back; a lease already taken back is no error. */
  releaseSlot?(server: string, lease: string): Promise<void>;
}

/** What the `policy` event tells: a call waited, was held by a 429, or was answered from reuse. */
export type PolicyNote =
  | { kind: 'queued' | 'slowed'; method: string; tool: string | undefined; waitedMs: number }
  | { kind: 'pushback'; retryAfterMs: number }
  | { kind: 'reused'; tool: string; shared: boolean };
