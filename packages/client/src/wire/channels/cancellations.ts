/**
 * `notifications/cancelled` on their way to a legacy server. `close()` lets them arrive (within a
 * grace) before it cuts the connection: a call aborted just before the client closes (Ctrl-C in
 * a command line, an `await using` scope left after an abort) must still stop on the server.
 */
/** How long close() waits for its last words to the server (a cancellation, DELETE of the session). */
export const CLOSE_GRACE_MS = 2_000;

export class Cancellations {
  readonly #sending = new Set<Promise<unknown>>();

  /** Keeps `sending` until it settles. */
  track(sending: Promise<unknown>): void {
    this.#sending.add(sending);
    void sending.finally(() => this.#sending.delete(sending));
  }

  /** Waits for every cancellation on its way, `graceMs` at most. */
  async settle(graceMs: number): Promise<void> {
    if (this.#sending.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(this.#sending),
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
  }
}
