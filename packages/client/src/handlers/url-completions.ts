/**
 * URL elicitations the user took on finish out of band. A 2025-11-25 server says so with
 * `notifications/elicitation/complete`; a 2026-07-28 server only by answering a retry. A call
 * that waits on them wakes on the notification or after a pause, whichever comes first.
 */
import { sleep } from '../core/deadline.ts';

/** How many finished ids are remembered: a notification may arrive before anyone waits. */
const REMEMBERED = 256;

export class UrlCompletions {
  readonly #done = new Set<string>();
  readonly #wakers = new Set<() => void>();

  complete(elicitationId: string): void {
    this.#done.add(elicitationId);
    if (this.#done.size > REMEMBERED) this.#done.delete(this.#done.values().next().value as string);
    for (const wake of this.#wakers) wake();
  }

  /**
   * Resolves once every id in `ids` is complete, or after `ms`; rejects when `signal` fires. A
   * completion wakes one wait only: a server that asks again about a finished id (or names no
   * id at all) is asked again after the pause, never at once.
   */
  async wait(ids: readonly string[], ms: number, signal: AbortSignal): Promise<void> {
    const complete = () => ids.length > 0 && ids.every((id) => this.#done.has(id));
    try {
      if (complete()) return;
      const pause = new AbortController();
      const wake = () => {
        if (complete()) pause.abort();
      };
      this.#wakers.add(wake);
      try {
        await sleep(ms, AbortSignal.any([signal, pause.signal]));
      } catch (error) {
        if (signal.aborted) throw error;
      } finally {
        this.#wakers.delete(wake);
      }
    } finally {
      for (const id of ids) this.#done.delete(id);
    }
  }
}
