/**
 * One AbortSignal per call: it fires when the caller aborts or the deadline passes, and its
 * reason is already the toolwire error to throw (AbortedError or TimeoutError). Progress can push
 * the deadline back, never past the hard cap measured from the call's start. Every request of the
 * call (pages, input rounds, retries, resumes, the wait for a renewed session) runs under it, and
 * it keeps the one fact about the call those requests share: whether the server may have run it.
 */
import { EventEmitter } from 'node:events';
import { AbortedError, type ErrorContext, TimeoutError } from './errors.ts';
import { Roster } from './roster.ts';

export interface DeadlineOptions {
  timeoutMs: number;
  /** The hard cap from the start of the call; `extend()` never goes past it. */
  maxTimeoutMs: number;
  signal?: AbortSignal | undefined;
  context: ErrorContext;
}

/**
 * What a wait on the wire listens to for a call's end: the deadline itself (no AbortSignal is
 * made for it) or any AbortSignal.
 */
export type CallEnd = Deadline | AbortSignal;

/** The deadline behind a signal it handed out, if it is one: cheaper to listen to. */
const OWNER = Symbol('deadline');
type OwnedSignal = AbortSignal & { [OWNER]?: Deadline };

/**
 * What to hand undici for `signal`: the deadline's emitter when the signal is a deadline's
 * (undici takes an EventEmitter as well as an AbortSignal, and adds and removes its listener on
 * every request: an emitter's cost a fraction of a signal's), else the signal.
 */
export function wireSignal(signal: AbortSignal): AbortSignal | EventEmitter {
  return (signal as OwnedSignal)[OWNER]?.wire ?? signal;
}

/**
 * Who listens for a call's end: an object, as a DOM event listener may be, so that what waits on
 * the wire (one object per request already) needs no closure to listen.
 */
export interface EndListener {
  handleEvent(): void;
}

/** Calls `listener.handleEvent()` once `end` aborts; `offEnd` takes it back. */
export function onEnd(end: CallEnd, listener: EndListener): void {
  const deadline = end instanceof Deadline ? end : (end as OwnedSignal)[OWNER];
  if (deadline) deadline.onEnd(listener);
  else (end as AbortSignal).addEventListener('abort', listener, { once: true });
}

export function offEnd(end: CallEnd, listener: EndListener): void {
  const deadline = end instanceof Deadline ? end : (end as OwnedSignal)[OWNER];
  if (deadline) deadline.offEnd(listener);
  else (end as AbortSignal).removeEventListener('abort', listener);
}

/**
 * Deadlines of at least COARSE_FROM_MS are checked by one shared timer every TICK_MS rather than
 * each by a timer of its own (as undici's fast timers do): with many calls in flight, arming and
 * clearing a timer per call costs more than the rest of a call to a local server. Such a
 * deadline fires at most TICK_MS late; a shorter one keeps its own timer, to the millisecond.
 */
const COARSE_FROM_MS = 1_000;
const TICK_MS = 250;
const watched = new Roster<'tickerSlot', Deadline>('tickerSlot');
/** The ticker, and the clock it was made by, to clear it with the same. */
let ticker:
  | { timer: NodeJS.Timeout; madeBy: typeof setInterval; clear: typeof clearInterval }
  | undefined;

function watch(deadline: Deadline): void {
  watched.add(deadline);
  if (watched.size > 1) return;
  // A ticker made by another clock (a test's fake timers, installed or removed since) would
  // never tick for this deadline: it is made again by the clock of the moment.
  if (ticker !== undefined && ticker.madeBy !== setInterval) stopTicker();
  if (ticker === undefined) {
    ticker = { timer: setInterval(tick, TICK_MS), madeBy: setInterval, clear: clearInterval };
  } else {
    ticker.timer.ref();
  }
}

function unwatch(deadline: Deadline): void {
  // Kept, unreferenced, while idle until its next tick: one call at a time does not make a timer
  // for each call, and no timer keeps the process alive.
  if (watched.delete(deadline) && watched.size === 0) ticker?.timer.unref();
}

function tick(): void {
  if (watched.size === 0) {
    stopTicker();
    return;
  }
  const now = performance.now();
  const due = watched.filter((deadline) => deadline.expiresAt <= now);
  for (const deadline of due) deadline.expire();
}

function stopTicker(): void {
  ticker?.clear(ticker.timer);
  ticker = undefined;
}

/** A timer callback without a closure per call. */
function expire(deadline: Deadline): void {
  deadline.expire();
}

/**
 * The call's end. What waits on the wire listens to it directly (`onEnd`); an AbortSignal, and an
 * EventEmitter for undici, are made only for what asks for one.
 */
export class Deadline implements Disposable {
  /**
   * Whether a request of the call may have reached the server and been acted on (see
   * wire/transport/retry.ts): once true, a call that is not idempotent is never sent again.
   */
  mayHaveRun = false;
  /** When the deadline passes, on `performance.now()`'s clock. */
  expiresAt = 0;
  /** Its places in the ticker's roster and its client's (see roster.ts). */
  tickerSlot = -1;
  callSlot = -1;
  #controller: AbortController | undefined;
  #wire: EventEmitter | undefined;
  /** Who listens for the end: nearly always one request, so one slot before a set. */
  #listener: EndListener | undefined;
  #listeners: Set<EndListener> | undefined;
  #reason: Error | undefined;
  readonly #options: DeadlineOptions;
  readonly #started: number;
  #timer: NodeJS.Timeout | undefined;
  #onCallerAbort: (() => void) | undefined;

  constructor(options: DeadlineOptions) {
    this.#options = options;
    this.#started = performance.now();
    const caller = options.signal;
    if (caller?.aborted) {
      this.abort(new AbortedError({ ...options.context, cause: caller.reason }));
      return;
    }
    if (caller) {
      this.#onCallerAbort = () =>
        this.abort(new AbortedError({ ...options.context, cause: caller.reason }));
      caller.addEventListener('abort', this.#onCallerAbort, { once: true });
    }
    this.#arm(Math.min(options.timeoutMs, options.maxTimeoutMs), this.#started);
  }

  /** Whether the call has ended (timed out, aborted by its caller, or by the client). */
  get aborted(): boolean {
    return this.#reason !== undefined;
  }

  /** Why it ended: the toolwire error to throw. */
  get reason(): Error | undefined {
    return this.#reason;
  }

  /** The call's end as an AbortSignal, for what takes one; made on first use. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      (this.#controller.signal as OwnedSignal)[OWNER] = this;
      if (this.#reason) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** The call's end as an EventEmitter (`abort`), for undici; made on first use. */
  get wire(): EventEmitter {
    this.#wire ??= new EventEmitter();
    return this.#wire;
  }

  /** Calls `listener` once, when the call ends; `offEnd` takes it back. */
  onEnd(listener: EndListener): void {
    if (this.#listener === undefined) {
      this.#listener = listener;
      return;
    }
    this.#listeners ??= new Set();
    this.#listeners.add(listener);
  }

  offEnd(listener: EndListener): void {
    if (this.#listener === listener) this.#listener = undefined;
    else this.#listeners?.delete(listener);
  }

  /** Milliseconds until the deadline, as it stands now. */
  remainingMs(): number {
    return this.aborted ? 0 : Math.max(0, this.expiresAt - performance.now());
  }

  /**
   * Milliseconds until the hard cap: the longest the call may still last if it keeps showing
   * signs of life. What a wire deadline says for a call whose timeout progress restarts.
   */
  capRemainingMs(): number {
    if (this.aborted) return 0;
    return Math.max(0, this.#options.maxTimeoutMs - (performance.now() - this.#started));
  }

  /** The call showed signs of life (progress): restart the timeout, within the hard cap. */
  extend(): void {
    if (this.aborted) return;
    const now = performance.now();
    this.#arm(
      Math.min(this.#options.timeoutMs, this.#options.maxTimeoutMs - (now - this.#started)),
      now,
    );
  }

  /** Ends the call now with `reason` (the client closing, say). */
  abort(reason: Error): void {
    if (this.#reason !== undefined) return;
    this.#reason = reason;
    this.#disarm();
    this.#controller?.abort(reason);
    this.#wire?.emit('abort');
    const first = this.#listener;
    const rest = this.#listeners;
    this.#listener = undefined;
    this.#listeners = undefined;
    first?.handleEvent();
    if (rest) for (const listener of rest) listener.handleEvent();
  }

  /** The time is up. */
  expire(): void {
    const elapsed = Math.round(performance.now() - this.#started);
    this.abort(new TimeoutError(elapsed, this.#options.context));
  }

  #arm(ms: number, now: number): void {
    const wait = Math.max(0, ms);
    this.expiresAt = now + wait;
    if (wait >= COARSE_FROM_MS) {
      if (this.#timer !== undefined) this.#disarm();
      watch(this);
      return;
    }
    this.#disarm();
    this.#timer = setTimeout(expire, wait, this);
  }

  #disarm(): void {
    if (this.#timer === undefined) unwatch(this);
    else {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  [Symbol.dispose](): void {
    this.#disarm();
    if (this.#onCallerAbort)
      this.#options.signal?.removeEventListener('abort', this.#onCallerAbort);
  }
}

/** The longest wait a timer takes; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Resolves after `ms` (at most about 24 days: a server asking for longer gets that), or rejects
 * with the signal's reason as soon as it aborts.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(Math.max(0, ms), MAX_TIMER_MS),
    );
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits for a shared promise, but lets one caller's signal stop its own wait. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
