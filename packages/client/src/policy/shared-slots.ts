/**
 * `concurrency` held across every client given one store with slots (Redis's leases). A lease
 * lasts as long as the call it admits may (its deadline's hard cap, `maxTimeoutMs`) and a little
 * more: a worker that dies frees its slots then, without a heartbeat to keep. This client's
 * leases go back when their calls settle, and all at once when it closes.
 */
import { asError } from '../core/call-boundary.ts';
import type { Deadline } from '../core/deadline.ts';
import type { PolicyStore } from './types.ts';

/** Past the call's hard cap: the time its settling takes to reach the store. */
const LEASE_GRACE_MS = 1_000;
/** The first wait for a slot, doubled while none comes, up to the longest. */
const FIRST_POLL_MS = 20;
const LONGEST_POLL_MS = 500;

/** The lease of a call admitted without the store, which failed: nothing to give back. */
const UNSHARED = '';

type SlotStore = Required<Pick<PolicyStore, 'acquireSlot' | 'releaseSlot'>>;

export class SharedSlots {
  readonly #store: SlotStore;
  readonly #server: string;
  readonly #limit: number;
  readonly #warn: (error: Error) => void;
  readonly #held = new Set<string>();
  #misses = 0;

  constructor(store: SlotStore, server: string, limit: number, warn: (error: Error) => void) {
    this.#store = store;
    this.#server = server;
    this.#limit = limit;
    this.#warn = warn;
  }

  /** The store's slots, when it has them and there is a limit to share. */
  static of(
    store: PolicyStore | undefined,
    server: string,
    limit: number,
    warn: (error: Error) => void,
  ): SharedSlots | undefined {
    if (!store?.acquireSlot || !store.releaseSlot || !Number.isFinite(limit)) return undefined;
    const slots = {
      acquireSlot: store.acquireSlot.bind(store),
      releaseSlot: store.releaseSlot.bind(store),
    };
    return new SharedSlots(slots, server, limit, warn);
  }

  /** A lease for the call under `deadline`, or undefined while every slot is taken. */
  async acquire(deadline: Deadline): Promise<string | undefined> {
    const leaseMs = Math.ceil(deadline.capRemainingMs()) + LEASE_GRACE_MS;
    let lease: string | undefined;
    try {
      lease = await this.#store.acquireSlot(this.#server, this.#limit, leaseMs);
    } catch (error) {
      // A store that fails must not stop every call: it is reported, and the call starts unshared.
      this.#warn(asError(error));
      return UNSHARED;
    }
    if (lease === undefined) {
      this.#misses++;
      return undefined;
    }
    this.#misses = 0;
    this.#held.add(lease);
    return lease;
  }

  /** How long to wait before asking again: doubling while no slot comes, jittered. */
  pollMs(): number {
    const ceiling = Math.min(LONGEST_POLL_MS, FIRST_POLL_MS * 2 ** Math.min(this.#misses, 8));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  release(lease: string): void {
    if (!this.#held.delete(lease)) return;
    this.#store
      .releaseSlot(this.#server, lease)
      .catch((error: unknown) => this.#warn(asError(error)));
  }

  /** Every lease this client holds goes back (its calls are being ended). */
  async close(): Promise<void> {
    const leases = [...this.#held];
    this.#held.clear();
    await Promise.all(
      leases.map((lease) =>
        this.#store
          .releaseSlot(this.#server, lease)
          .catch((error: unknown) => this.#warn(asError(error))),
      ),
    );
  }
}
