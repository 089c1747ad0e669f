/**
 * Which call to one server starts, and when: at most `concurrency` in flight, the others in a
 * queue in the order they came, each under its own deadline (one that ends leaves the queue with
 * its TimeoutError or AbortedError); starts within the rate, and none while a 429 holds them.
 */
import { asError } from '../core/call-boundary.ts';
import { type Deadline, type EndListener, offEnd, onEnd } from '../core/deadline.ts';
import type { ErrorContext } from '../core/errors.ts';
import { spanOf } from '../telemetry/span.ts';
import type { CallRate, PolicyNote, PolicyStore, TakenStart } from './types.ts';

/** A call waiting for its turn; it listens for its own deadline's end. */
class QueuedCall implements EndListener {
  readonly since = performance.now();
  /** Held back by a 429 at some point while it waited. */
  slowed = false;
  readonly admission: Admission;
  readonly deadline: Deadline;
  readonly where: ErrorContext;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;

  constructor(
    admission: Admission,
    deadline: Deadline,
    where: ErrorContext,
    resolve: () => void,
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
  #pause: { timer: NodeJS.Timeout; resume: () => void } | undefined;
  #closed = false;

  constructor(settings: AdmissionSettings) {
    this.#settings = settings;
  }

  /**
   * Takes a slot for the call under `deadline`: `undefined` when it may start at once (no
   * promise made), else a promise that settles when it may, or rejects with the deadline's error.
   */
  enter(deadline: Deadline, where: ErrorContext): Promise<void> | undefined {
    if (
      this.#settings.store === undefined &&
      this.#queue.length === 0 &&
      this.#inFlight < this.#settings.concurrency &&
      this.#heldUntil <= Date.now()
    ) {
      this.#inFlight++;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
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

  /** A call that entered has settled: its slot goes to the next in line. */
  exit(): void {
    this.#inFlight--;
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

  /** Stops every wait; the calls themselves are ended by their deadlines. */
  close(): void {
    this.#closed = true;
    this.#wake();
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

  /** Starts waiters while there are slots, pausing where the rate or a hold says to. */
  async #startNext(): Promise<void> {
    while (this.#ready()) {
      const taken = await this.#taken();
      if (taken.waitMs > 0) {
        if (taken.held) for (const waiter of this.#queue) waiter.slowed = true;
        await this.#sleep(taken.waitMs);
        continue;
      }
      const waiter = this.#queue.shift();
      // Everyone left while the start was taken: it is spent, as a failed request's would be.
      if (!waiter) return;
      offEnd(waiter.deadline, waiter);
      this.#inFlight++;
      this.#admitted(waiter);
      waiter.resolve();
    }
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

  #sleep(ms: number): Promise<void> {
    return new Promise((resume) => {
      // A timer can fire a little early; the loop asks again, so no start comes before its time.
      const timer = setTimeout(() => {
        this.#pause = undefined;
        resume();
      }, Math.ceil(ms));
      this.#pause = { timer, resume };
    });
  }

  #wake(): void {
    if (!this.#pause) return;
    clearTimeout(this.#pause.timer);
    this.#pause.resume();
    this.#pause = undefined;
  }
}
