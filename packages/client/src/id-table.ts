/**
 * What waits for an answer, by JSON-RPC request id. A Map would do, but not for long-running
 * churn: V8 links the table a Map rehashes away (its deletions leave holes it rehashes out every
 * few dozen requests) to the table that replaces it, for iterators still walking the old one. Once
 * a table left behind is promoted to the old generation, every later table, and the calls their
 * entries hold, outlives the young collections: at 32 calls in flight over stdio, a third of what
 * the client allocated was copied or promoted and its collections took 5 times as long as with
 * this table. An object without a prototype, whose property store is simply replaced when it
 * grows, links nothing.
 */
import type { RequestId } from './jsonrpc.ts';

export class IdTable<T> {
  #byId: Record<string, T> = Object.create(null) as Record<string, T>;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(id: RequestId): T | undefined {
    return this.#byId[key(id)];
  }

  set(id: RequestId, value: T): void {
    const at = key(id);
    if (!(at in this.#byId)) this.#size += 1;
    this.#byId[at] = value;
  }

  /** Removes the entry; false when there was none. */
  delete(id: RequestId): boolean {
    const at = key(id);
    if (!(at in this.#byId)) return false;
    delete this.#byId[at];
    this.#size -= 1;
    return true;
  }

  /** The values now, in a list of their own: integer ids in order, then the others as they came. */
  values(): T[] {
    return Object.values(this.#byId);
  }

  clear(): void {
    this.#byId = Object.create(null) as Record<string, T>;
    this.#size = 0;
  }
}

/**
 * The property an id is kept under: a number as itself (an integer is an index, looked up without
 * a string), a string behind a letter no number's text starts with, so 1 and "1" stay apart.
 */
function key(id: RequestId): string {
  return typeof id === 'number' ? (id as unknown as string) : `s${id}`;
}
