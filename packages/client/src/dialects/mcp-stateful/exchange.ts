/**
 * One request, from POST to response: the answer may be a JSON body or an event stream that
 * carries notifications and server requests before the response. A stream that breaks after the
 * server gave event ids is resumed with GET + Last-Event-ID, as the transport spec says.
 */
import type { Deadline } from '../../deadline.ts';
import { sleep } from '../../deadline.ts';
import { StreamTruncatedError, TransportError } from '../../errors.ts';
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from '../../jsonrpc.ts';
import {
  discard,
  excerpt,
  type HttpResponse,
  readText,
  send,
  statusError,
} from '../../transport/http.ts';
import { readMessages, type StreamPosition } from '../../transport/sse.ts';
import { readAnswer } from '../answer.ts';
import type { Progress } from '../dialect.ts';
import type { Router, Waiter } from '../router.ts';
import {
  ACCEPT_POST,
  ACCEPT_STREAM,
  type Session,
  SessionNotFound,
  type StatefulConfig,
} from './session.ts';

export interface Wire {
  config: StatefulConfig;
  session: Session;
  router: Router;
}

export interface ExchangeOptions {
  deadline: Deadline;
  idempotent: boolean;
  tool?: string | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
}

export interface Exchanged {
  response: JsonRpcResponse;
  /** The HTTP status the response came with (a JSON-RPC error may ride on a 4xx). */
  status: number;
  header(name: string): string | undefined;
}

export async function exchange(
  wire: Wire,
  request: JsonRpcRequest,
  options: ExchangeOptions,
): Promise<Exchanged> {
  const { config, router } = wire;
  const { signal } = options.deadline;
  const waiter = router.expect(request.id, options.onProgress, {
    deadline: options.deadline,
    tool: options.tool,
  });
  try {
    const response = await post(wire, request, signal);
    const exchanged = (message: JsonRpcResponse): Exchanged => ({
      response: message,
      status: response.status,
      header: response.header,
    });
    if (response.status === 200 && response.mediaType === 'text/event-stream') {
      await untilAnswered(wire, response, waiter, options);
      return exchanged(waiter.response!);
    }
    const answer = await readAnswer(response, request, {
      url: config.url,
      tool: options.tool,
      maxResponseBytes: config.maxResponseBytes,
      signal,
      route: (incoming) => router.dispatch(incoming, waiter),
    });
    return exchanged(answer);
  } finally {
    router.forget(waiter);
  }
}

/** Reads the call's stream (and its resumptions) until the response has been routed to `waiter`. */
async function untilAnswered(
  wire: Wire,
  first: HttpResponse,
  waiter: Waiter,
  options: ExchangeOptions,
): Promise<void> {
  const { config } = wire;
  const { signal } = options.deadline;
  const position: StreamPosition = { lastEventId: undefined, retryMs: undefined };
  let stream = first;
  let failedResumes = 0;
  for (;;) {
    const resumedFrom = position.lastEventId;
    try {
      for await (const incoming of readMessages(stream.body, {
        url: config.url,
        maxEventSize: config.maxEventSize,
        signal,
        position,
      })) {
        wire.router.dispatch(incoming, waiter);
        if (waiter.response) return;
      }
    } catch (error) {
      // A broken connection is what resumption is for; anything else (too large, malformed) ends the call.
      if (!(error instanceof TransportError)) throw error;
    }
    if (waiter.response) return;
    // A stream that moved forward earns a fresh budget: 2025-11-25 servers may close on purpose
    // after every event and expect the client to poll.
    failedResumes = position.lastEventId !== resumedFrom ? 0 : failedResumes + 1;
    if (position.lastEventId === undefined || failedResumes >= config.reconnectAttempts) {
      throw new StreamTruncatedError({
        url: config.url,
        method: 'POST',
        retryable: options.idempotent,
      });
    }
    await sleep(position.retryMs ?? config.retry.minDelayMs, signal);
    stream = await resume(wire, position.lastEventId, signal);
  }
}

async function resume(wire: Wire, lastEventId: string, signal: AbortSignal): Promise<HttpResponse> {
  const { config, session } = wire;
  const response = await send(config.dispatcher, {
    url: config.url,
    method: 'GET',
    headers: session.headers(ACCEPT_STREAM, { 'last-event-id': lastEventId }),
    signal,
  });
  if (response.status === 404 && session.id !== undefined) {
    discard(response);
    // The request was accepted before the stream broke: it may have run.
    throw new SessionNotFound(false);
  }
  if (response.status === 200 && response.mediaType === 'text/event-stream') return response;
  const text = await readText(response, config.maxResponseBytes, config.url, signal);
  if (response.status === 405) {
    throw new StreamTruncatedError({ url: config.url, method: 'GET', bodyExcerpt: excerpt(text) });
  }
  throw statusError(response, text, { url: config.url, method: 'GET' });
}

/** POSTs a notification or a response to a server request; the server owes only a 202. */
export async function deliver(
  wire: Wire,
  message: JsonRpcMessage,
  signal: AbortSignal,
): Promise<void> {
  const { config } = wire;
  const response = await post(wire, message, signal);
  if (response.status >= 200 && response.status < 300) return discard(response);
  const text = await readText(response, config.maxResponseBytes, config.url, signal);
  const method = 'method' in message ? message.method : 'response';
  throw statusError(response, text, { url: config.url, method });
}

/**
 * POSTs one message with the session's headers. A 404 to a message that carried our session id
 * means the server forgot the session without acting on the message.
 */
async function post(
  wire: Wire,
  message: JsonRpcMessage,
  signal: AbortSignal,
): Promise<HttpResponse> {
  const { config, session } = wire;
  const carriedSession = session.id !== undefined;
  const response = await send(config.dispatcher, {
    url: config.url,
    method: 'POST',
    headers: session.headers(ACCEPT_POST, { 'content-type': 'application/json' }),
    body: JSON.stringify(message),
    signal,
  });
  if (response.status === 404 && carriedSession) {
    discard(response);
    throw new SessionNotFound(true);
  }
  return response;
}
