/**
 * Which call to one server starts, and when: at most `concurrency` in flight, the others in a
 * queue in the order they came, each under its own deadline (one that ends leaves the queue with
 * its TimeoutError or AbortedError); starts within the rate, and none while a 429 holds them.
 */
import { asError } from '../core/call-boundary.ts';
import { type Deadline, type EndListener, offEnd, onEnd } from '../core/deadline.ts';
import type { ErrorContext } from '../core/errors.ts';
import { spanOf } from '../telemetry/span.ts';
import { SharedSlots } from './shared-slots.ts';
import type { CallRate, PolicyNote, PolicyStore, TakenStart } from './types.ts';

/** A call waiting for its turn; it listens for its own deadline's end. */
class QueuedCall implements EndListener {
  readonly since = performance.now();
  /** Held back by a 429 at some point while it waited. */
  slowed = false;
  readonly admission: Admission;
  readonly deadline: Deadline;
  readonly where: ErrorContext;
  readonly resolve: (lease: string | undefined) => void;
  readonly reject: (error: Error) => void;

  constructor(
    admission: Admission,
    deadline: Deadline,
    where: ErrorContext,
    resolve: (lease: string | undefined) => void,
    reject: (error: Error) => void,
  ) {
    this.admission = admission;
    this.deadline = deadline;
    this.where = where;
    this.resolve = resolve;
    this.reject = reject;
  }

  handleEvent(): void {
    this.admission.leave(this);
  }
}

export interface AdmissionSettings {
  server: string;
  concurrency: number;
  rate: CallRate | undefined;
  /** Undefined when nothing is paced: only the local hold is checked, and synchronously. */
  store: PolicyStore | undefined;
  note: (note: PolicyNote) => void;
  warn: (error: Error) => void;
}

export class Admission {
  #inFlight = 0;
  readonly #queue: QueuedCall[] = [];
  readonly #settings: AdmissionSettings;
  /** A 429's hold as this client heard it (epoch ms); the store keeps the shared one. */
  #heldUntil = 0;
  #draining = false;
  /** The pause before the next start may be asked for again, while waiters wait. */
  #pause: { timer: NodeJS.Timeout; resume: () => void; forSlot: boolean } | undefined;
  #closed = false;
  /** Slots shared with every client of the store, when it has them. */
  readonly #slots: SharedSlots | undefined;
  /** The shared slot's lease taken for the call at the head of the queue, while the rate keeps it waiting. */
  #lease: { id: string; for: QueuedCall } | undefined;

  constructor(settings: AdmissionSettings) {
    this.#settings = settings;
    this.#slots = SharedSlots.of(
      settings.store,
      settings.server,
      settings.concurrency,
      settings.warn,
    );
  }

  /**
   * Takes a slot for the call under `deadline`: `undefined` when it may start at once (no
   * promise made), else a promise that settles when it may (with the shared slot's lease, if
   * any, for `exit`), or rejects with the deadline's error.
   */
  enter(deadline: Deadline, where: ErrorContext): Promise<string | undefined> | undefined {
    if (
      this.#settings.store === undefined &&
      this.#queue.length === 0 &&
      this.#inFlight < this.#settings.concurrency &&
      this.#heldUntil <= Date.now()
    ) {
      this.#inFlight++;
      return undefined;
    }
    return new Promise<string | undefined>((resolve, reject) => {
      if (deadline.reason) {
        reject(deadline.reason);
        return;
      }
      const waiter = new QueuedCall(this, deadline, where, resolve, reject);
      onEnd(deadline, waiter);
      this.#queue.push(waiter);
      this.#drain();
    });
  }

  /** A call that entered has settled: its slot (and `lease`) goes to the next in line. */
  exit(lease?: string): void {
    this.#inFlight--;
    if (lease !== undefined) this.#slots?.release(lease);
    // A slot given back here is likely the one a waiter polls the store for: ask now.
    if (this.#pause?.forSlot) this.#wake();
    if (this.#queue.length > 0) this.#drain();
  }

  /** A waiting call's deadline ended: it leaves the queue with the deadline's error. */
  leave(waiter: QueuedCall): void {
    const at = this.#queue.indexOf(waiter);
    if (at < 0) return;
    this.#queue.splice(at, 1);
    waiter.reject(waiter.deadline.reason ?? asError(new Error('the call ended')));
    // Nobody left to wait for: no timer stays behind for them.
    if (this.#queue.length === 0) this.#wake();
  }

  /** The server asked for `retryAfterMs` of quiet: no call starts until it has passed. */
  pushback(retryAfterMs: number): void {
    const until = Date.now() + retryAfterMs;
    if (until <= this.#heldUntil) return;
    this.#heldUntil = until;
    this.#settings.note({ kind: 'pushback', retryAfterMs });
    this.#settings.store
      ?.hold(this.#settings.server, until)
      .catch((error: unknown) => this.#settings.warn(asError(error)));
  }

  /** Stops every wait and gives back every shared slot; the calls are ended by their deadlines. */
  close(): Promise<void> {
    this.#closed = true;
    this.#wake();
    this.#lease = undefined;
    return this.#slots?.close() ?? Promise.resolve();
  }

  #drain(): void {
    if (this.#draining || this.#closed) return;
    this.#draining = true;
    this.#startNext().then(
      () => {
        this.#draining = false;
        if (this.#ready()) this.#drain();
      },
      (error: unknown) => {
        this.#draining = false;
        this.#settings.warn(asError(error));
      },
    );
  }

  #ready(): boolean {
    return !this.#closed && this.#queue.length > 0 && this.#inFlight < this.#settings.concurrency;
  }

  /**
   * Starts waiters while there are slots, pausing where the rate or a hold says to. With shared
   * slots, the head of the queue takes its lease first (polling while all are taken, which
   * spends nothing of the rate), then its start within the rate.
   */
  async #startNext(): Promise<void> {
    try {
      while (this.#ready()) {
        const head = this.#queue[0]!;
        // The call a lease was measured for left: its lease goes back, the next takes its own.
        if (this.#lease && this.#lease.for !== head) this.#giveBackLease();
        if (this.#slots && this.#lease === undefined) {
          const id = await this.#slots.acquire(head.deadline);
          if (id === undefined) {
            await this.#sleep(this.#slots.pollMs(), true);
            continue;
          }
          this.#lease = { id, for: head };
          if (this.#queue[0] !== head) continue;
        }
        const taken = await this.#taken();
        if (taken.waitMs > 0) {
          if (taken.held) for (const waiter of this.#queue) waiter.slowed = true;
          await this.#sleep(taken.waitMs, false);
          continue;
        }
        // Everyone left while the start was taken: it is spent, as a failed request's would be.
        if (this.#queue[0] !== head) continue;
        this.#queue.shift();
        const lease = this.#lease?.id;
        this.#lease = undefined;
        offEnd(head.deadline, head);
        this.#inFlight++;
        this.#admitted(head);
        head.resolve(lease);
      }
    } finally {
      // Nobody is left to start: a lease taken for one who left is not kept.
      this.#giveBackLease();
    }
  }

  #giveBackLease(): void {
    if (this.#lease) this.#slots?.release(this.#lease.id);
    this.#lease = undefined;
  }

  async #taken(): Promise<TakenStart> {
    const { store, server, rate } = this.#settings;
    const local = this.#heldUntil - Date.now();
    if (local > 0) return { waitMs: local, held: true };
    if (!store) return { waitMs: 0, held: false };
    try {
      return await store.take(server, rate);
    } catch (error) {
      // A store that fails must not stop every call: it is reported, and the call starts.
      this.#settings.warn(asError(error));
      return { waitMs: 0, held: false };
    }
  }

  #admitted(waiter: QueuedCall): void {
    const waitedMs = performance.now() - waiter.since;
    const kind = waiter.slowed ? 'slowed' : 'queued';
    spanOf(waiter.deadline).set({
      'toolwire.policy.waited': kind,
      'toolwire.policy.wait_ms': Math.round(waitedMs),
    });
    const { method = '', tool } = waiter.where;
    this.#settings.note({ kind, method, tool, waitedMs });
  }

  #sleep(ms: number, forSlot: boolean): Promise<void> {
    return new Promise((resume) => {
      // A timer can fire a little early; the loop asks again, so no start comes before its time.
      const timer = setTimeout(
        () => {
          this.#pause = undefined;
          resume();
        },
        Math.min(Math.ceil(ms), MAX_TIMER_MS),
      );
      this.#pause = { timer, resume, forSlot };
    });
  }

  #wake(): void {
    if (!this.#pause) return;
    clearTimeout(this.#pause.timer);
    this.#pause.resume();
    this.#pause = undefined;
  }
}

/** The longest delay setTimeout keeps (a longer one fires at once): the loop asks again after it. */
const MAX_TIMER_MS = 2 ** 31 - 1;
