/**
 * What is in flight now (the deadlines the ticker checks, a client's calls), added and removed in
 * constant time without allocating: each item keeps its own index in the list, in the field the
 * roster is named for, -1 when it is in none. A Set does the same job, but its churn (deletions
 * leave holes it rehashes away) cost 65 ns an add and delete against 10 ns here, with 32 in flight.
 */
export class Roster<K extends string, T extends { [key in K]: number }> {
  readonly #slot: K;
  readonly #items: T[] = [];

  /** `slot`: the item's field that holds its index in this roster. */
  constructor(slot: K) {
    this.#slot = slot;
  }

  get size(): number {
    return this.#items.length;
  }

  add(item: T): void {
    if (item[this.#slot] !== -1) return;
    item[this.#slot] = this.#items.length as T[K];
    this.#items.push(item);
  }

  /** Removes `item`; false when it was not there. The last item takes its place. */
  delete(item: T): boolean {
    const slot = item[this.#slot];
    if (slot === -1) return false;
    item[this.#slot] = -1 as T[K];
    const last = this.#items.pop()!;
    if (last !== item) {
      this.#items[slot] = last;
      last[this.#slot] = slot;
    }
    return true;
  }

  /** The items now, as a list of their own: what is done with them may change the roster. */
  snapshot(): T[] {
    return [...this.#items];
  }

  /** The items now that `test` picks, in a list of their own (see `snapshot`). */
  filter(test: (item: T) => boolean): T[] {
    return this.#items.filter(test);
  }
}
