/**
 * Newline framing for a text stream (the stdio binding): one message per line, `\r\n` accepted.
 * The stream is decoded before it gets here (a stream's `setEncoding('utf8')`, which keeps a
 * character split across chunks whole). Linear in the size of a message: each character is
 * searched once and copied once, however many chunks a line arrives in. A line longer than the
 * limit (in UTF-8 bytes, as it came) is never held: its text is dropped as it arrives, and only
 * its first characters are kept, so the caller can say which message it was.
 */

/** How much of an oversized line is kept: enough to find its id, in practice. */
const HEAD_CHARS = 1024;

export interface LineHandlers {
  /** One whole line, without its line ending. Blank lines are not passed on. */
  line(text: string): void;
  /** A line longer than the limit was dropped; `head` is its beginning. */
  oversized(head: string): void;
}

export class LineSplitter {
  readonly #limit: number;
  readonly #handlers: LineHandlers;
  /** The start of the current line, in the chunks it arrived in. */
  #parts: string[] = [];
  /** Their size in UTF-8 bytes. */
  #size = 0;
  /** Set while the rest of an oversized line is being dropped: the head kept of it. */
  #dropping: string | undefined;

  /** `limit`: the longest line, in UTF-8 bytes, without its line ending. */
  constructor(limit: number, handlers: LineHandlers) {
    this.#limit = limit;
    this.#handlers = handlers;
  }

  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf('\n', start);
      if (end === -1) {
        if (start < chunk.length) this.#hold(chunk.slice(start));
        return;
      }
      this.#finish(chunk.slice(start, end));
      start = end + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.#dropping !== undefined || this.#size > 0) this.#finish('');
  }

  #hold(piece: string): void {
    if (this.#dropping !== undefined) return;
    this.#size += Buffer.byteLength(piece);
    // One byte of slack for the `\r` of a `\r\n`, which does not count against the limit.
    if (this.#size > this.#limit + 1) {
      this.#dropping = this.#head(piece);
      this.#parts = [];
      this.#size = 0;
      return;
    }
    this.#parts.push(piece);
  }

  #finish(last: string): void {
    if (this.#dropping !== undefined) {
      const head = this.#dropping;
      this.#dropping = undefined;
      this.#handlers.oversized(head);
      return;
    }
    let line = this.#parts.length === 0 ? last : this.#parts.join('') + last;
    const held = this.#size;
    this.#parts = [];
    this.#size = 0;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    // The `\r` of a `\r\n` does not count against the limit; anything else past it does. A
    // character is at most three bytes: most lines are measured without counting them.
    if ((held > 0 || line.length * 3 > this.#limit) && Buffer.byteLength(line) > this.#limit) {
      this.#handlers.oversized(line.slice(0, HEAD_CHARS));
      return;
    }
    if (isBlank(line)) return;
    this.#handlers.line(line);
  }

  /** The first characters of the line held so far and `piece` after them. */
  #head(piece: string): string {
    let head = '';
    for (const part of [...this.#parts, piece]) {
      head += part.slice(0, HEAD_CHARS - head.length);
      if (head.length >= HEAD_CHARS) break;
    }
    return head;
  }
}

/** Only spaces, tabs and carriage returns (a message starts with `{`: nearly always one look). */
function isBlank(line: string): boolean {
  const first = line.charCodeAt(0);
  if (line.length > 0 && first !== 0x20 && first !== 0x09 && first !== 0x0d) return false;
  return /^[ \t\r]*$/.test(line);
}
