/**
 * What a server writes to stderr: its logs, never protocol, and not a sign of failure by itself
 * (the stdio binding says so). Each line is handed on as it comes; the last few are kept, because
 * when the server dies they are usually the reason, and the error should say it.
 */
import { LineSplitter } from './lines.ts';

/** How many of the last lines are kept for errors. */
const TAIL_LINES = 20;
/** A longer stderr line is cut: a log line is for people, not for parsing. */
const MAX_LINE_CHARS = 2_000;

export class StderrTail {
  readonly #lines: string[] = [];
  readonly #splitter: LineSplitter;
  readonly #onLine: (line: string) => void;

  constructor(onLine: (line: string) => void) {
    this.#onLine = onLine;
    this.#splitter = new LineSplitter(MAX_LINE_CHARS, {
      line: (text) => this.#add(text),
      oversized: (head) => this.#add(`${head.slice(0, MAX_LINE_CHARS)}…`),
    });
  }

  push(chunk: string): void {
    this.#splitter.push(chunk);
  }

  end(): void {
    this.#splitter.end();
  }

  /** The last lines, oldest first. */
  get lines(): readonly string[] {
    return this.#lines;
  }

  #add(line: string): void {
    this.#lines.push(line);
    if (this.#lines.length > TAIL_LINES) this.#lines.shift();
    this.#onLine(line);
  }
}
