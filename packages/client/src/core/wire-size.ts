/**
 * How many bytes a result took on the wire, noted where its message was parsed, so a listing can
 * total its pages (`maxListBytes`) without serializing them again. Only large bodies are noted: a
 * result with no note is measured by the listing itself, which costs little for a small page and
 * keeps every call's own path free of the bookkeeping.
 */

/** What is read of a parsed message: jsonrpc.ts's Incoming, named here so neither imports the other. */
interface Parsed {
  kind: string;
  message: object;
}

/** Smaller texts are not noted: measuring such a page again is cheap. */
const NOTED_FROM = 64 * 1024;

const sizes = new WeakMap<object, number>();

/**
 * Notes the size of `text` on each result it carried. A batch's results each get the whole text:
 * an upper bound, and batches are rare (2025-03-26 only).
 */
export function noteSize(messages: Parsed | readonly Parsed[], text: string): void {
  if (text.length < NOTED_FROM) return;
  const bytes = Buffer.byteLength(text, 'utf8');
  for (const incoming of Array.isArray(messages) ? messages : [messages]) {
    const result = (incoming.message as { result?: unknown }).result;
    if (incoming.kind === 'response' && typeof result === 'object' && result !== null) {
      sizes.set(result, bytes);
    }
  }
}

/** A result made from another (an envelope taken off) took the other's bytes on the wire. */
export function carrySize(from: object, to: object): void {
  const bytes = sizes.get(from);
  if (bytes !== undefined) sizes.set(to, bytes);
}

/** The bytes a page of a listing took: as noted, or about the length of its items' JSON. */
export function pageSize(result: object, items: readonly unknown[]): number {
  return sizes.get(result) ?? jsonLength(items);
}

/**
 * About how long `value` is as JSON, walked without recursion: a server's page may nest deeper
 * than JSON.stringify (or any recursive walk) can go without exhausting the stack.
 */
function jsonLength(value: unknown): number {
  let length = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') length += next.length + 2;
    else if (Array.isArray(next)) {
      length += next.length + 2;
      for (const item of next) pending.push(item);
    } else if (typeof next === 'object' && next !== null) {
      length += 2;
      for (const [key, item] of Object.entries(next)) {
        length += key.length + 4;
        pending.push(item);
      }
    } else length += String(next).length;
  }
  return length;
}
