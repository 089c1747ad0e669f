/**
 * A concurrency limit for scenario runs. Each run is two or three Node processes, and CI has two
 * cores: all at once would thrash (and skew timing-sensitive scenarios such as sse-retry), one at
 * a time would waste the time scenarios spend waiting on sockets.
 */
export function createLimit(concurrency: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  // A finishing task hands its slot straight to the next waiter: no newcomer can slip in between.
  const acquire = (): Promise<void> | undefined => {
    if (running < concurrency) {
      running += 1;
      return undefined;
    }
    return new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  };
  return async (task) => {
    await acquire();
    try {
      return await task();
    } finally {
      release();
    }
  };
}
