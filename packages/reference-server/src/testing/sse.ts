/** One server-sent event as a client sees it. */
export interface SseEvent {
  id?: string;
  /** The `event:` field (the HTTP+SSE transport names its events); absent means `message`. */
  event?: string;
  data: string;
  retry?: number;
}

/**
 * An incremental SSE parser over a fetch body, written from the WHATWG event-stream format:
 * blank lines end events, `:` lines are comments, one space after the colon is dropped.
 */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  readonly #queue: SseEvent[] = [];
  #buffer = '';
  #done = false;

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (body === null) throw new Error('response has no body');
    this.#reader = body.getReader();
  }

  /** The next event (priming events included); undefined at a clean end; throws if the connection broke. */
  async next(): Promise<SseEvent | undefined> {
    while (this.#queue.length === 0) {
      if (this.#done) return undefined;
      const { value, done } = await this.#reader.read();
      if (done) this.#done = true;
      else this.#buffer += this.#decoder.decode(value, { stream: true });
      this.#parse();
    }
    return this.#queue.shift();
  }

  /** Reads to the end; `broken` tells whether the connection failed instead of ending cleanly. */
  async readAll(): Promise<{ events: SseEvent[]; broken: boolean }> {
    const events: SseEvent[] = [];
    try {
      for (let event = await this.next(); event !== undefined; event = await this.next()) {
        events.push(event);
      }
      return { events, broken: false };
    } catch {
      return { events, broken: true };
    }
  }

  /** Reads until an event satisfies `predicate`, returning every event read on the way. */
  async readUntil(predicate: (event: SseEvent) => boolean): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (;;) {
      const event = await this.next();
      if (event === undefined) throw new Error('stream ended before the expected event');
      events.push(event);
      if (predicate(event)) return events;
    }
  }

  /** Stops reading and releases the connection. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => undefined);
  }

  #parse(): void {
    this.#buffer = this.#buffer.replace(/\r\n?/g, '\n');
    for (let end = this.#buffer.indexOf('\n\n'); end !== -1; end = this.#buffer.indexOf('\n\n')) {
      const block = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      const event = parseBlock(block);
      if (event !== undefined) this.#queue.push(event);
    }
  }
}

function parseBlock(block: string): SseEvent | undefined {
  const event: SseEvent = { data: '' };
  const data: string[] = [];
  let seen = false;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    seen = true;
    if (field === 'data') data.push(value);
    else if (field === 'id') event.id = value;
    else if (field === 'event') event.event = value;
    else if (field === 'retry' && /^\d+$/.test(value)) event.retry = Number(value);
  }
  event.data = data.join('\n');
  return seen ? event : undefined;
}
