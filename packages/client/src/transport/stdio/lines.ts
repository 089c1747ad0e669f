/**
 * Newline framing for a byte stream (the stdio binding): one message per line, `\r\n` accepted.
 * Linear in the size of a message: each byte is searched once and copied once, however many
 * chunks a line arrives in. A line longer than the limit is never held: its bytes are dropped as
 * they arrive, and only its first bytes are kept, so the caller can say which message it was.
 */

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** How much of an oversized line is kept: enough to find its id, in practice. */
const HEAD_BYTES = 1024;

export interface LineHandlers {
  /** One whole line, decoded, without its line ending. Blank lines are not passed on. */
  line(text: string): void;
  /** A line longer than the limit was dropped; `head` is its beginning. */
  oversized(head: string): void;
}

export class LineSplitter {
  readonly #limit: number;
  readonly #handlers: LineHandlers;
  /** The start of the current line, in the chunks it arrived in. */
  #parts: Buffer[] = [];
  #size = 0;
  /** Set while the rest of an oversized line is being dropped: the head kept of it. */
  #dropping: Buffer | undefined;

  /** `limit`: the longest line, in bytes, without its line ending. */
  constructor(limit: number, handlers: LineHandlers) {
    this.#limit = limit;
    this.#handlers = handlers;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) {
        if (start < chunk.length) this.#hold(chunk.subarray(start));
        return;
      }
      this.#finish(chunk.subarray(start, end));
      start = end + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.#dropping !== undefined || this.#size > 0) this.#finish(Buffer.alloc(0));
  }

  #hold(piece: Buffer): void {
    if (this.#dropping !== undefined) return;
    this.#size += piece.length;
    // One byte of slack for the `\r` of a `\r\n`, which does not count against the limit.
    if (this.#size > this.#limit + 1) {
      this.#dropping = this.#head(piece);
      this.#parts = [];
      this.#size = 0;
      return;
    }
    this.#parts.push(piece);
  }

  #finish(last: Buffer): void {
    if (this.#dropping !== undefined) {
      const head = this.#dropping;
      this.#dropping = undefined;
      this.#handlers.oversized(head.toString('utf8'));
      return;
    }
    const size = this.#size + last.length;
    if (size > this.#limit + 1) {
      const head = this.#head(last);
      this.#parts = [];
      this.#size = 0;
      this.#handlers.oversized(head.toString('utf8'));
      return;
    }
    let line = this.#parts.length === 0 ? last : Buffer.concat([...this.#parts, last], size);
    this.#parts = [];
    this.#size = 0;
    if (line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, -1);
    // The `\r` of a `\r\n` does not count against the limit; anything else past it does.
    if (line.length > this.#limit) {
      this.#handlers.oversized(line.subarray(0, HEAD_BYTES).toString('utf8'));
      return;
    }
    if (isBlank(line)) return;
    this.#handlers.line(line.toString('utf8'));
  }

  /** The first bytes of the line held so far and `piece` after them. */
  #head(piece: Buffer): Buffer {
    const parts = [...this.#parts, piece];
    const size = Math.min(
      HEAD_BYTES,
      parts.reduce((sum, part) => sum + part.length, 0),
    );
    // Only `size` bytes are copied, however much was held.
    return Buffer.concat(parts, size);
  }
}

function isBlank(line: Buffer): boolean {
  for (const byte of line) {
    // space, tab, carriage return
    if (byte !== 0x20 && byte !== 0x09 && byte !== CARRIAGE_RETURN) return false;
  }
  return true;
}
