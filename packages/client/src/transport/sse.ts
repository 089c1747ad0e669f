/**
 * Server-Sent Events: a response body in, parsed events out, one pass, bounded.
 * Parsing is eventsource-parser's; this file adds the byte limit, JSON-RPC decoding and the
 * bookkeeping resumption needs (the last event id and the server's `retry` hint).
 */
import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import { MalformedMessageError, ResponseTooLargeError } from '../errors.ts';
import { type Incoming, parseMessages } from '../jsonrpc.ts';
import { transportError } from './http.ts';

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

export async function* readEvents(
  body: AsyncIterable<Buffer>,
  options: SseOptions,
): AsyncGenerator<EventSourceMessage> {
  const { position, maxEventSize, url } = options;
  const ready: EventSourceMessage[] = [];
  let failure: Error | undefined;
  const parser = createParser({
    // The parser buffers an unfinished line; bounding it bounds memory for a server that never
    // sends a newline. The slack covers the field name, so the exact limit is the onEvent check.
    maxBufferSize: maxEventSize + FIELD_SLACK,
    onEvent: (event) => {
      if (event.data.length > maxEventSize)
        failure ??= new ResponseTooLargeError('event', maxEventSize, { url });
      else ready.push(event);
    },
    onId: (id) => {
      position.lastEventId = id;
    },
    onRetry: (ms) => {
      position.retryMs = ms;
    },
    onError: (error: ParseError) => {
      if (error.type === 'max-buffer-size-exceeded') {
        failure ??= new ResponseTooLargeError('event', maxEventSize, { url });
      }
      // Unknown fields and bad retry values are ignored, as the SSE standard says.
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of body) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (failure) throw failure;
      while (ready.length > 0) yield ready.shift()!;
    }
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    if (error === failure) throw error;
    throw transportError(error, url);
  }
  parser.feed(decoder.decode());
  if (failure) throw failure;
  yield* ready;
}

/**
 * JSON-RPC messages from an MCP event stream. Events with empty data (2025-11-25 priming
 * events) and events of other types carry no message and are skipped.
 */
export async function* readMessages(
  body: AsyncIterable<Buffer>,
  options: SseOptions,
): AsyncGenerator<Incoming> {
  for await (const event of readEvents(body, options)) {
    if (event.data === '' || (event.event !== undefined && event.event !== 'message')) continue;
    const messages = parseMessages(event.data);
    if (typeof messages === 'string') {
      throw new MalformedMessageError(`${messages} in an SSE event`, {
        url: options.url,
        bodyExcerpt: event.data.slice(0, 200),
      });
    }
    yield* messages;
  }
}
