/**
 * What waits for an answer, by JSON-RPC request id. Not a Map: V8 links each table a Map rehashes
 * away (its deletions leave holes, rehashed out every few dozen requests) to the table that
 * replaces it, for iterators still walking the old one. Once a table left behind is promoted to
 * the old generation, every later table, and the calls their entries hold, outlives the young
 * collections: at 32 calls in flight over stdio, a third of what the client allocated survived
 * them, and the client spent four times as long in them as it does with this table.
 *
 * The ids a client makes count up from 0, so the ones in flight together fall in different slots
 * of a ring (`id & mask`) that is never rehashed: a lookup is an index, and a deletion empties the
 * slot. A string id, and a straggler whose slot a much later id needs, are kept in a Map beside
 * the ring, which sees little churn.
 */
import type { RequestId } from './jsonrpc.ts';

const FREE = -1;
const FIRST_SIZE = 16;

export class IdTable<T> {
  /** The ring: the id in each slot (FREE when there is none) and its value. */
  #ids: number[] = new Array<number>(FIRST_SIZE).fill(FREE);
  #values: Array<T | undefined> = new Array<T | undefined>(FIRST_SIZE).fill(undefined);
  #mask = FIRST_SIZE - 1;
  #inRing = 0;
  /** What has no slot: ids that are not small integers, stragglers moved aside. */
  #aside: Map<RequestId, T> | undefined;

  get size(): number {
    return this.#inRing + (this.#aside?.size ?? 0);
  }

  get(id: RequestId): T | undefined {
    if (hasSlot(id)) {
      const slot = id & this.#mask;
      if (this.#ids[slot] === id) return this.#values[slot];
    }
    return this.#aside?.get(id);
  }

  set(id: RequestId, value: T): void {
    if (!hasSlot(id) || this.#aside?.has(id)) {
      this.#others().set(id, value);
      return;
    }
    let slot = id & this.#mask;
    const there = this.#ids[slot];
    if (there !== id) {
      if (there !== FREE) {
        // Half full: more in flight than the ring was made for. Else an old request holds the
        // slot, and it moves aside rather than the ring growing for it.
        if (this.#inRing * 2 >= this.#ids.length) this.#grow();
        slot = id & this.#mask;
        if (this.#ids[slot] !== FREE) this.#moveAside(slot);
      }
      this.#ids[slot] = id;
      this.#inRing += 1;
    }
    this.#values[slot] = value;
  }

  /** Removes the entry; false when there was none. */
  delete(id: RequestId): boolean {
    if (hasSlot(id)) {
      const slot = id & this.#mask;
      if (this.#ids[slot] === id) {
        this.#ids[slot] = FREE;
        this.#values[slot] = undefined;
        this.#inRing -= 1;
        return true;
      }
    }
    return this.#aside?.delete(id) ?? false;
  }

  /** The values now, in a list of their own. */
  values(): T[] {
    const values: T[] = [];
    for (let slot = 0; slot < this.#ids.length; slot++) {
      if (this.#ids[slot] !== FREE) values.push(this.#values[slot] as T);
    }
    if (this.#aside) values.push(...this.#aside.values());
    return values;
  }

  clear(): void {
    this.#ids.fill(FREE);
    this.#values.fill(undefined);
    this.#inRing = 0;
    this.#aside = undefined;
  }

  /** Twice the slots: ids apart in the old ring are apart in the new one too. */
  #grow(): void {
    const ids = this.#ids;
    const values = this.#values;
    const size = ids.length * 2;
    this.#ids = new Array<number>(size).fill(FREE);
    this.#values = new Array<T | undefined>(size).fill(undefined);
    this.#mask = size - 1;
    for (let slot = 0; slot < ids.length; slot++) {
      const id = ids[slot]!;
      if (id === FREE) continue;
      this.#ids[id & this.#mask] = id;
      this.#values[id & this.#mask] = values[slot];
    }
  }

  #others(): Map<RequestId, T> {
    this.#aside ??= new Map();
    return this.#aside;
  }

  #moveAside(slot: number): void {
    this.#others().set(this.#ids[slot]!, this.#values[slot] as T);
    this.#ids[slot] = FREE;
    this.#values[slot] = undefined;
    this.#inRing -= 1;
  }
}

/** Whether the id can have a slot: an integer from 0 up to what a bitwise AND keeps. */
function hasSlot(id: RequestId): id is number {
  return typeof id === 'number' && (id | 0) === id && id >= 0;
}
