/**
 * Server-Sent Events: a response body in, parsed events out, one pass, bounded.
 * Parsing is eventsource-parser's; this file adds the byte limit, JSON-RPC decoding and the
 * bookkeeping resumption needs (the last event id and the server's `retry` hint).
 *
 * The body is read with 'data' events and handed on a chunk's events at a time, and messages
 * come out of a plain iterator: an async generator per layer cost more than parsing itself with
 * small events (a promise chain and ~1 KB of garbage per event).
 */
import { Readable } from 'node:stream';
import {
  createParser,
  type EventSourceMessage,
  type EventSourceParser,
  type ParseError,
} from 'eventsource-parser';
import { MalformedMessageError, ResponseTooLargeError } from '../../core/errors.ts';
import { classify, type Incoming, parseMessages } from '../../core/jsonrpc.ts';
import { noteSize } from '../../core/wire-size.ts';
import { transportError } from './http.ts';

/**
 * A stream the client keeps open (the GET stream, `subscriptions/listen`) ended and is to be
 * reopened: thrown for p-retry, which reopens on a throw. Never leaves the channel.
 */
export class StreamEnded extends Error {
  /** It delivered something first: reopening it spends nothing of the failure budget. */
  readonly delivered: boolean;
  constructor(delivered: boolean) {
    super('event stream ended');
    this.delivered = delivered;
  }
}

/** p-retry's `shouldConsumeRetry` for a kept-open stream (see StreamEnded). */
export function consumesRetry({ error }: { error: Error }): boolean {
  return !(error instanceof StreamEnded && error.delivered);
}

export interface StreamPosition {
  /** The id of the last event seen, for `Last-Event-ID` when resuming. */
  lastEventId: string | undefined;
  /** The reconnection delay the server asked for with `retry:`, in ms. */
  retryMs: number | undefined;
}

export interface SseOptions {
  url: string;
  /** Largest event (its data, in characters) the client accepts. */
  maxEventSize: number;
  signal: AbortSignal;
  position: StreamPosition;
}

const FIELD_SLACK = 16;
const noop = () => {};
/** How much of a stream, after the reader is done with it, is read to keep its connection. */
const DRAIN_BYTES = 64 * 1024;
const DRAIN_MS = 1_000;

/** Reads what is left of a body and drops it; destroys it if it is long or slow to end. */
function drainAway(body: Readable): void {
  let left = DRAIN_BYTES;
  // Unref'd: a server that holds the stream open must not keep the process alive.
  const timer = setTimeout(() => body.destroy(), DRAIN_MS).unref();
  body
    .on('data', (chunk: Buffer) => {
      left -= chunk.length;
      if (left < 0) body.destroy();
    })
    .once('close', () => clearTimeout(timer))
    .resume();
}

/** Parsed events, one at a time. */
export async function* readEvents(
  body: AsyncIterable<Buffer>,
  options: SseOptions,
): AsyncGenerator<EventSourceMessage> {
  const reader = new EventReader(body, options);
  try {
    for (let batch = await reader.take(); batch; batch = await reader.take()) yield* batch;
  } finally {
    reader.stop();
  }
}

/**
 * JSON-RPC messages from an MCP event stream. Events with empty data (2025-11-25 priming
 * events) and events of other types carry no message and are skipped. Each event is decoded
 * when it is reached, so a reader that stops at its response never fails on what follows.
 */
export function readMessages(
  body: AsyncIterable<Buffer>,
  options: SseOptions,
): AsyncIterableIterator<Incoming> {
  return new MessageReader(new EventReader(body, options), options.url);
}

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

class MessageReader implements AsyncIterableIterator<Incoming> {
  readonly #events: EventReader;
  readonly #url: string;
  #batch: EventSourceMessage[] = [];
  #at = 0;
  /** The rest of an event that held several messages (a 2025-03-26 batch). */
  #more: Incoming[] = [];
  #done = false;

  constructor(events: EventReader, url: string) {
    this.#events = events;
    this.#url = url;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Incoming>> {
    if (this.#done) return Promise.resolve(DONE);
    try {
      const message = this.#buffered();
      if (message) return Promise.resolve({ value: message, done: false });
    } catch (error) {
      this.#finish();
      return Promise.reject(error);
    }
    return this.#refill();
  }

  /** The reader stopped early (it found its response, or broke out of its loop). */
  return(): Promise<IteratorResult<Incoming>> {
    this.#finish(true);
    return Promise.resolve(DONE);
  }

  async #refill(): Promise<IteratorResult<Incoming>> {
    try {
      for (;;) {
        const batch = await this.#events.take();
        if (!batch) {
          this.#finish();
          return DONE;
        }
        this.#batch = batch;
        this.#at = 0;
        const message = this.#buffered();
        if (message) return { value: message, done: false };
      }
    } catch (error) {
      this.#finish();
      throw error;
    }
  }

  /** The next message among the events already read, decoding one event at a time. */
  #buffered(): Incoming | undefined {
    const more = this.#more.shift();
    if (more) return more;
    while (this.#at < this.#batch.length) {
      const event = this.#batch[this.#at++]!;
      if (event.data === '' || (event.event !== undefined && event.event !== 'message')) continue;
      return this.#decode(event.data);
    }
    return undefined;
  }

  /** One event's message; an array (a 2025-03-26 batch) leaves the rest in `#more`. */
  #decode(data: string): Incoming {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      throw this.#malformed('invalid JSON', data);
    }
    // Nearly every event holds one message: classified as is, without the batch's arrays.
    if (!Array.isArray(value)) {
      const incoming = classify(value);
      if (typeof incoming === 'string') throw this.#malformed(incoming, data);
      noteSize(incoming, data);
      return incoming;
    }
    const messages = parseMessages(data);
    if (typeof messages === 'string') throw this.#malformed(messages, data);
    this.#more = messages.slice(1);
    return messages[0]!;
  }

  #malformed(reason: string, data: string): MalformedMessageError {
    return new MalformedMessageError(`${reason} in an SSE event`, {
      url: this.#url,
      bodyExcerpt: data.slice(0, 200),
    });
  }

  #finish(drain = false): void {
    this.#done = true;
    this.#batch = [];
    this.#more = [];
    this.#events.stop(drain);
  }
}

/**
 * Feeds a body's chunks to the parser as they arrive and hands out the events parsed so far.
 * At most one chunk is read ahead of the reader: the body is paused while events wait.
 */
class EventReader {
  readonly #body: Readable;
  readonly #options: SseOptions;
  readonly #parser: EventSourceParser;
  readonly #decoder = new TextDecoder();
  #ready: EventSourceMessage[] = [];
  /** Set by the parser's callbacks while a chunk is fed: this chunk broke a limit. */
  #tooLarge: ResponseTooLargeError | undefined;
  /** Why the stream can give nothing more, once the events before it are handed out. */
  #failure: unknown;
  #failed = false;
  #ended = false;
  #stopped = false;
  #wake: (() => void) | undefined;

  constructor(body: AsyncIterable<Buffer>, options: SseOptions) {
    this.#options = options;
    const { position, maxEventSize, url } = options;
    this.#parser = createParser({
      // The parser buffers an unfinished line; bounding it bounds memory for a server that never
      // sends a newline. The slack covers the field name, so the exact limit is the onEvent check.
      maxBufferSize: maxEventSize + FIELD_SLACK,
      onEvent: (event) => {
        if (event.data.length > maxEventSize)
          this.#tooLarge ??= new ResponseTooLargeError('event', maxEventSize, { url });
        else this.#ready.push(event);
      },
      onId: (id) => {
        position.lastEventId = id;
      },
      onRetry: (ms) => {
        position.retryMs = ms;
      },
      onError: (error: ParseError) => {
        if (error.type === 'max-buffer-size-exceeded') {
          this.#tooLarge ??= new ResponseTooLargeError('event', maxEventSize, { url });
        }
        // Unknown fields and bad retry values are ignored, as the SSE standard says.
      },
    });
    // undici's body is a Readable; anything else (a test's generator) is made one.
    this.#body = body instanceof Readable ? body : Readable.from(body);
    this.#body.on('data', this.#onData).on('end', this.#onEnd).on('error', this.#onError);
  }

  /** The events parsed since the last take; undefined once the stream has ended. */
  async take(): Promise<EventSourceMessage[] | undefined> {
    while (this.#ready.length === 0 && !this.#failed && !this.#ended && !this.#stopped) {
      if (this.#body.isPaused()) this.#body.resume();
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
    if (this.#ready.length > 0) {
      const batch = this.#ready;
      this.#ready = [];
      return batch;
    }
    if (this.#failed && !this.#stopped) throw this.#reason();
    return undefined;
  }

  /**
   * Stops reading. With `drain`, the reader is done with a stream that is fine: one the server
   * has finished is left as it is (its socket is back in the pool, and destroying it would only
   * cost an AbortError with a stack), and one still open is read to its end, within a few
   * kilobytes and a second, so its connection can be reused (servers often end the stream a
   * moment after the response). Anything else is destroyed.
   */
  stop(drain = false): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#ready = [];
    // A reader waiting for the next chunk is told the stream is over.
    this.#awaken();
    const body = this.#body;
    body.off('data', this.#onData).off('end', this.#onEnd).off('error', this.#onError);
    // Keeps a late error from surfacing as an uncaught one.
    body.on('error', noop);
    const state = (body as { _readableState?: { ended?: boolean } })._readableState;
    if (this.#ended || this.#failed || state?.ended) return;
    if (drain) drainAway(body);
    else body.destroy();
  }

  #reason(): unknown {
    const { signal, url } = this.#options;
    if (this.#failure instanceof ResponseTooLargeError) return this.#failure;
    if (signal.aborted) return signal.reason;
    return transportError(this.#failure, url);
  }

  #onData = (chunk: Buffer): void => {
    const before = this.#ready.length;
    this.#parser.feed(this.#decoder.decode(chunk, { stream: true }));
    if (this.#tooLarge) {
      // Nothing of the chunk that broke the limit is handed out.
      this.#ready.length = before;
      this.#fail(this.#tooLarge);
      this.#body.destroy();
      return;
    }
    if (this.#wake) this.#awaken();
    else if (this.#ready.length > 0) this.#body.pause();
  };

  #onEnd = (): void => {
    this.#parser.feed(this.#decoder.decode());
    if (this.#tooLarge) {
      this.#fail(this.#tooLarge);
      return;
    }
    this.#ended = true;
    this.#awaken();
  };

  #onError = (error: unknown): void => {
    this.#fail(error);
  };

  #fail(error: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#failure = error;
    this.#awaken();
  }

  #awaken(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
