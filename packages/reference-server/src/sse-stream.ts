import type { ServerResponse } from 'node:http';
import type { JsonObject } from './jsonrpc.ts';

/** One event as it went (or would have gone) over the wire; kept for replay. */
interface BufferedEvent {
  readonly seq: number;
  readonly data: string;
  readonly retryMs: number | undefined;
  readonly isResponse: boolean;
}

/** The HTTP response currently carrying the stream, with the bookkeeping the faults need. */
interface Connection {
  readonly res: ServerResponse;
  /** Writes handed to Node but not yet flushed to the socket. */
  pending: number;
  written: number;
  cutAfter: number | undefined;
  destroyWhenFlushed: boolean;
}

/** How a connection joins a stream. */
export interface AttachOptions {
  /** Extra response headers (the session id on the initialize answer). */
  readonly headers?: Record<string, string>;
  /** Replay the buffered events whose sequence number is greater than this one. */
  readonly replayAfter?: number;
  /** Start with a priming event (an id and empty data), as 2025-11-25 servers should. */
  readonly prime?: boolean;
  /** Fault: destroy the socket after this many events, and at the latest before a response. */
  readonly cutAfter?: number;
  /** Fault: send only the priming event with this `retry` value, then end the connection. */
  readonly closeAfterPrimingMs?: number;
}

/** Older events are dropped beyond this, so a long-lived standalone stream cannot grow without bound. */
const MAX_BUFFERED_EVENTS = 1000;

/**
 * One logical SSE stream. It outlives the HTTP connections that carry it: every event gets an id
 * `<streamId>-<seq>` and is buffered, so a client that lost the connection can GET with
 * `Last-Event-ID` and continue exactly where it stopped.
 */
export class SseStream {
  readonly id: string;
  #events: BufferedEvent[] = [];
  #seq = 0;
  #conn: Connection | undefined;
  #finished = false;

  constructor(id: string) {
    this.id = id;
  }

  /** Splits an event id into its stream id and sequence number. */
  static parseEventId(eventId: string): { streamId: string; seq: number } | undefined {
    const dash = eventId.lastIndexOf('-');
    const seq = Number(eventId.slice(dash + 1));
    if (dash <= 0 || !Number.isSafeInteger(seq) || seq < 0) return undefined;
    return { streamId: eventId.slice(0, dash), seq };
  }

  /** Whether an HTTP connection is currently carrying the stream. */
  get connected(): boolean {
    return this.#conn !== undefined;
  }

  /** Whether the stream has delivered everything it ever will (the POST's responses). */
  get finished(): boolean {
    return this.#finished;
  }

  /** Makes `res` the live connection of this stream; a previous connection is ended first. */
  attach(res: ServerResponse, options: AttachOptions = {}): void {
    this.disconnect();
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      ...options.headers,
    });
    // Flush now so the client's fetch resolves even if the first event is a while away.
    res.flushHeaders();
    const conn: Connection = {
      res,
      pending: 0,
      written: 0,
      cutAfter: options.cutAfter,
      destroyWhenFlushed: false,
    };
    this.#conn = conn;
    res.on('close', () => {
      if (this.#conn === conn) this.#conn = undefined;
    });
    const { replayAfter } = options;
    if (replayAfter !== undefined) {
      for (const event of this.#events) if (event.seq > replayAfter) this.#write(conn, event);
    }
    if (options.closeAfterPrimingMs !== undefined) {
      this.#push('', options.closeAfterPrimingMs, false);
      this.disconnect();
      return;
    }
    if (options.prime === true) this.#push('', undefined, false);
    if (this.#finished) this.disconnect();
    else if (conn.cutAfter !== undefined && conn.written >= conn.cutAfter) this.#cut();
  }

  /** Queues one JSON-RPC message; returns false when the stream is already finished. */
  send(message: JsonObject, isResponse = false): boolean {
    if (this.#finished) return false;
    this.#push(JSON.stringify(message), undefined, isResponse);
    return true;
  }

  /** Marks the stream complete; the live connection (if any) ends gracefully. */
  finish(): void {
    this.#finished = true;
    this.disconnect();
  }

  /** Ends the live connection gracefully; the stream itself stays resumable. */
  disconnect(): void {
    const conn = this.#conn;
    this.#conn = undefined;
    if (conn !== undefined && !conn.res.writableEnded) conn.res.end();
  }

  #push(data: string, retryMs: number | undefined, isResponse: boolean): void {
    const event: BufferedEvent = { seq: ++this.#seq, data, retryMs, isResponse };
    this.#events.push(event);
    if (this.#events.length > MAX_BUFFERED_EVENTS) this.#events.shift();
    const conn = this.#conn;
    if (conn === undefined) return;
    // The cut fault strikes once its quota is written and at the latest before the response, so the
    // response is only reachable by resuming.
    if (conn.cutAfter !== undefined && (isResponse || conn.written >= conn.cutAfter)) {
      this.#cut();
      return;
    }
    this.#write(conn, event);
    if (conn.cutAfter !== undefined && conn.written >= conn.cutAfter) this.#cut();
  }

  #write(conn: Connection, event: BufferedEvent): void {
    let text = `id: ${this.id}-${event.seq}\n`;
    if (event.retryMs !== undefined) text += `retry: ${event.retryMs}\n`;
    text += event.data === '' ? 'data:\n\n' : `data: ${event.data}\n\n`;
    conn.pending++;
    conn.written++;
    conn.res.write(text, () => {
      conn.pending--;
      if (conn.pending === 0 && conn.destroyWhenFlushed) conn.res.destroy();
    });
  }

  /**
   * Simulates a network failure: the socket is destroyed without the chunked terminator. It waits
   * until the events already written have reached the socket, otherwise they would be lost too.
   */
  #cut(): void {
    const conn = this.#conn;
    if (conn === undefined) return;
    this.#conn = undefined;
    if (conn.pending === 0) conn.res.destroy();
    else conn.destroyWhenFlushed = true;
  }
}
