/**
 * One AbortSignal per call: it fires when the caller aborts or the deadline passes, and its
 * reason is already the toolwire error to throw (AbortedError or TimeoutError). Progress can push
 * the deadline back, never past the hard cap measured from the call's start. Every request of the
 * call (pages, input rounds, retries, resumes, the wait for a renewed session) runs under it, and
 * it keeps the one fact about the call those requests share: whether the server may have run it.
 */
import { EventEmitter } from 'node:events';
import { AbortedError, type ErrorContext, TimeoutError } from './errors.ts';

export interface DeadlineOptions {
  timeoutMs: number;
  /** The hard cap from the start of the call; `extend()` never goes past it. */
  maxTimeoutMs: number;
  signal?: AbortSignal | undefined;
  context: ErrorContext;
}

/**
 * The emitter that stands for a deadline's signal on the wire (see `wireSignal`). undici takes an
 * EventEmitter as well as an AbortSignal, and listening to an emitter costs a fraction of an
 * AbortSignal listener, which undici adds and removes on every request.
 */
const WIRE = Symbol('wire');
type WiredSignal = AbortSignal & { [WIRE]?: EventEmitter };

/** What to hand undici for `signal`: the deadline's emitter when it has one, else the signal. */
export function wireSignal(signal: AbortSignal): AbortSignal | EventEmitter {
  return (signal as WiredSignal)[WIRE] ?? signal;
}

/** A timer callback without a closure per call. */
function expire(deadline: Deadline): void {
  deadline.expire();
}

export class Deadline implements Disposable {
  readonly signal: AbortSignal;
  /**
   * Whether a request of the call may have reached the server and been acted on (see
   * transport/retry.ts): once true, a call that is not idempotent is never sent again.
   */
  mayHaveRun = false;
  readonly #controller = new AbortController();
  readonly #wire = new EventEmitter();
  readonly #options: DeadlineOptions;
  readonly #started = performance.now();
  #timer: NodeJS.Timeout | undefined;
  #expiresAt = 0;
  #onCallerAbort: (() => void) | undefined;

  constructor(options: DeadlineOptions) {
    this.#options = options;
    this.signal = this.#controller.signal;
    (this.signal as WiredSignal)[WIRE] = this.#wire;
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
    this.#arm(Math.min(options.timeoutMs, options.maxTimeoutMs));
  }

  /** Milliseconds until the deadline, as it stands now. */
  remainingMs(): number {
    return this.signal.aborted ? 0 : Math.max(0, this.#expiresAt - performance.now());
  }

  /**
   * Milliseconds until the hard cap: the longest the call may still last if it keeps showing
   * signs of life. What a wire deadline says for a call whose timeout progress restarts.
   */
  capRemainingMs(): number {
    if (this.signal.aborted) return 0;
    return Math.max(0, this.#options.maxTimeoutMs - (performance.now() - this.#started));
  }

  /** The call showed signs of life (progress): restart the timeout, within the hard cap. */
  extend(): void {
    if (this.signal.aborted) return;
    const elapsed = performance.now() - this.#started;
    this.#arm(Math.min(this.#options.timeoutMs, this.#options.maxTimeoutMs - elapsed));
  }

  /** Ends the call now with `reason` (the client closing, say). */
  abort(reason: Error): void {
    if (this.signal.aborted) return;
    this.#controller.abort(reason);
    this.#wire.emit('abort');
  }

  /** The timer fired. */
  expire(): void {
    const elapsed = Math.round(performance.now() - this.#started);
    this.abort(new TimeoutError(elapsed, this.#options.context));
  }

  #arm(ms: number): void {
    clearTimeout(this.#timer);
    this.#expiresAt = performance.now() + Math.max(0, ms);
    this.#timer = setTimeout(expire, Math.max(0, ms), this);
  }

  [Symbol.dispose](): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
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
