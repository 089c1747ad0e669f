import { expect, test } from 'vitest';
import { shared } from './flight.ts';

test('concurrent callers share one run', async () => {
  const scope = {};
  let runs = 0;
  let finish!: () => void;
  const run = () => {
    runs++;
    return new Promise<void>((resolve) => {
      finish = resolve;
    });
  };
  const waits = Array.from({ length: 10 }, () =>
    shared(scope, 'key', new AbortController().signal, run),
  );
  finish();
  await Promise.all(waits);
  expect(runs).toBe(1);
  // Once it is over, the next caller starts a new run.
  await shared(scope, 'key', new AbortController().signal, async () => {
    runs++;
  });
  expect(runs).toBe(2);
});

test('a caller that aborts stops waiting; the run is aborted when nobody waits any more', async () => {
  const scope = {};
  let runSignal!: AbortSignal;
  const run = (signal: AbortSignal) => {
    runSignal = signal;
    return new Promise<void>((_, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason)),
    );
  };
  const one = new AbortController();
  const two = new AbortController();
  const first = shared(scope, 'key', one.signal, run).catch((e: unknown) => e);
  const second = shared(scope, 'key', two.signal, run).catch((e: unknown) => e);
  one.abort(new Error('one left'));
  expect(await first).toEqual(new Error('one left'));
  expect(runSignal.aborted).toBe(false);
  two.abort(new Error('two left'));
  expect(await second).toEqual(new Error('two left'));
  expect(runSignal.aborted).toBe(true);
});

test('a failed run fails every waiter with its error', async () => {
  const scope = {};
  const failing = async () => {
    throw new Error('refused');
  };
  const waits = [1, 2].map(() =>
    shared(scope, 'k', new AbortController().signal, failing).catch((e: unknown) => e),
  );
  expect(await Promise.all(waits)).toEqual([new Error('refused'), new Error('refused')]);
});
