/**
 * One piece of work shared by everyone who needs it: concurrent callers join the same run (one
 * refresh however many calls wait), each can stop waiting on its own signal, and the run is
 * aborted once nobody waits for it any more.
 */
import { onePerCall } from '../core/call-boundary.ts';

interface Flight {
  promise: Promise<void>;
  controller: AbortController;
  waiters: number;
}

/** Shared runs by store and key: two clients sharing a store share their refreshes too. */
const flights = new WeakMap<object, Map<string, Flight>>();

export function shared(
  scope: object,
  key: string,
  signal: AbortSignal,
  run: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  let byKey = flights.get(scope);
  if (!byKey) {
    byKey = new Map();
    flights.set(scope, byKey);
  }
  let flight = byKey.get(key);
  if (!flight) {
    const controller = new AbortController();
    const started: Flight = { controller, waiters: 0, promise: Promise.resolve() };
    started.promise = run(controller.signal).finally(() => {
      if (byKey.get(key) === started) byKey.delete(key);
    });
    // Nobody may be left to see a failure: the waiters each get it through their own race.
    started.promise.catch(() => {});
    byKey.set(key, started);
    flight = started;
  }
  return wait(flight, signal);
}

function wait(flight: Flight, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  flight.waiters++;
  return new Promise<void>((resolve, reject) => {
    let waiting = true;
    const leave = () => {
      if (!waiting) return false;
      waiting = false;
      signal.removeEventListener('abort', onAbort);
      flight.waiters--;
      return true;
    };
    const onAbort = () => {
      if (!leave()) return;
      if (flight.waiters === 0) flight.controller.abort(signal.reason);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    flight.promise.then(
      () => leave() && resolve(),
      (error: unknown) => leave() && reject(onePerCall(error)),
    );
  });
}
