/**
 * One request, from POST to response: the answer may be a JSON body or an event stream that
 * carries notifications and server requests before the response. A stream that breaks after the
 * server gave event ids is resumed with GET + Last-Event-ID, as the transport spec says, in the
 * session the request was sent in and nowhere else. A failed resume is a failure of the stream,
 * never of the POST: the POST is not sent again because of it (transport/retry.ts decides that
 * for the whole exchange).
 */
import { sleep } from '../../../core/deadline.ts';
import {
  type McpError,
  SessionExpiredError,
  StreamTruncatedError,
  TransportError,
} from '../../../core/errors.ts';
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from '../../../core/jsonrpc.ts';
import { transientStatus } from '../../../core/wire-codes.ts';
import {
  abandon,
  discard,
  excerpt,
  type HttpResponse,
  readText,
  statusError,
} from '../../transport/http.ts';
import { readMessages, type StreamPosition } from '../../transport/sse.ts';
import type { ChannelCall, Waiter } from '../channel.ts';
import { ACCEPT_RESPONSE, ACCEPT_STREAM, httpRequest } from '../http-request.ts';
import { readJsonReply } from '../json-reply.ts';
import { notModified, withIfNoneMatch } from '../revalidate.ts';
import { type HttpSessionConfig, type Session, SessionNotFound } from './session.ts';

/** Where a session's requests go: the channel's configuration and the session they go out in. */
export interface SessionTarget {
  config: HttpSessionConfig;
  /** The session requests go out in; a renewal replaces it whole. */
  readonly session: Session;
}

/**
 * A request of a session: the dialect routes every message its streams carry (`onMessage`), and
 * its router says when the response has arrived, on this stream or another (`waiter`).
 */
export interface SessionCall extends ChannelCall {
  waiter: Waiter;
}

export interface Exchanged {
  response: JsonRpcResponse;
  /** The HTTP answer it came in (a JSON-RPC error may ride on a 4xx): status and headers. */
  http: Pick<HttpResponse, 'status' | 'header'>;
}

export function exchange(
  target: SessionTarget,
  request: JsonRpcRequest,
  options: SessionCall,
): Promise<Exchanged> {
  // The call lives in the session it was sent in: its stream is resumed there or nowhere.
  const session = target.session;
  // A response to this request from an earlier attempt (or session) is not its answer now.
  options.waiter.response = undefined;
  // Callbacks rather than an async function: a JSON answer, nearly every call, costs no frame.
  const { revalidation } = options;
  const envelope = withIfNoneMatch(undefined, revalidation);
  return post(target, request, options.deadline.signal, session, envelope).then((response) => {
    const kept = notModified(response, request, revalidation);
    if (kept) return { response: kept, http: response };
    return response.status === 200 && response.mediaType === 'text/event-stream'
      ? streamed(target, session, response, request, options)
      : answered(target, response, request, options);
  });
}

/** The answer is a JSON body (or an error status). */
function answered(
  target: SessionTarget,
  response: HttpResponse,
  request: JsonRpcRequest,
  options: SessionCall,
): Promise<Exchanged> {
  const { config } = target;
  const { waiter } = options;
  return readJsonReply(response, request, {
    url: config.url,
    tool: options.tool,
    maxResponseBytes: config.maxResponseBytes,
    signal: options.deadline.signal,
    route: options.onMessage,
  }).then(
    (answer) => ({ response: answer, http: response }),
    (error: unknown) => {
      // The body held no response to us, but the response came on another stream meanwhile.
      if (waiter.response) return { response: waiter.response, http: response };
      throw error;
    },
  );
}

/** The answer is an event stream: read (and resumed) until the response is in. */
async function streamed(
  target: SessionTarget,
  session: Session,
  response: HttpResponse,
  request: JsonRpcRequest,
  options: SessionCall,
): Promise<Exchanged> {
  const where = { url: target.config.url, method: request.method, tool: options.tool };
  await untilAnswered(target, session, response, options.waiter, { ...options, where });
  return { response: options.waiter.response!, http: response };
}

interface StreamOptions extends SessionCall {
  where: { url: string; method: string; tool: string | undefined };
}

/**
 * Reads the call's stream, and resumes it when it breaks, until the response has been routed to
 * `waiter` (from this stream or any other). Resumes are paced by the server's `retry:` over a
 * floor of `retry.minDelayMs` (doubling while the stream makes no progress) and bounded twice:
 * `reconnectAttempts` in a row without progress, `retry.maxResumes` in all.
 */
async function untilAnswered(
  target: SessionTarget,
  session: Session,
  first: HttpResponse,
  waiter: Waiter,
  options: StreamOptions,
): Promise<void> {
  const { retry, reconnectAttempts } = target.config;
  const { signal } = options.deadline;
  const position: StreamPosition = { lastEventId: undefined, retryMs: undefined };
  let stream: HttpResponse | undefined = first;
  let stalled = 0;
  let resumes = 0;
  let failure: McpError | undefined;
  let retryAfterMs: number | undefined;
  for (;;) {
    if (waiter.response) {
      if (stream) abandon(stream);
      return;
    }
    if (stream) {
      const resumedFrom = position.lastEventId;
      failure = await read(target, stream, options, position, signal);
      if (waiter.response) return;
      // A stream that moved forward resets the count: 2025-11-25 servers may end a stream on
      // purpose after every event and expect the client to poll.
      stalled = position.lastEventId !== resumedFrom ? 0 : stalled + 1;
    } else stalled += 1;
    const lastEventId = position.lastEventId;
    if (lastEventId === undefined || stalled >= reconnectAttempts || resumes >= retry.maxResumes) {
      throw new StreamTruncatedError({ ...options.where, cause: failure });
    }
    const backoff = Math.min(retry.minDelayMs * 2 ** Math.max(0, stalled - 1), retry.maxDelayMs);
    const pause = Math.max(position.retryMs ?? 0, backoff, retryAfterMs ?? 0);
    // A server that asks for a longer wait than the cap, or than the call has left, is not waited for.
    const tooLong = pause > retry.maxRetryAfterMs || pause > options.deadline.remainingMs();
    if (retryAfterMs !== undefined && tooLong) {
      throw new StreamTruncatedError({ ...options.where, cause: failure });
    }
    await sleep(pause, signal);
    if (waiter.response) return;
    resumes += 1;
    const resumed = await resume(target, session, lastEventId, signal, options.where);
    stream = resumed.stream;
    failure = resumed.failure;
    retryAfterMs = resumed.retryAfterMs;
  }
}

/**
 * Routes what one stream carries until it ends, breaks, or the call's response arrives, on this
 * stream or another. Returns the broken connection's error, if it broke.
 */
async function read(
  target: SessionTarget,
  stream: HttpResponse,
  call: SessionCall,
  position: StreamPosition,
  signal: AbortSignal,
): Promise<McpError | undefined> {
  const { config } = target;
  const { waiter, onMessage } = call;
  const reader = readMessages(stream.body, {
    url: config.url,
    maxEventSize: config.maxEventSize,
    signal,
    position,
  });
  // A response routed from another stream ends this read: the call has what it waited for.
  waiter.arrived = () => void reader.return?.();
  try {
    for await (const incoming of reader) {
      onMessage(incoming);
      if (waiter.response) return undefined;
    }
    return undefined;
  } catch (error) {
    // A broken connection is what resumption is for; anything else (too large, malformed) ends the call.
    if (!(error instanceof TransportError)) throw error;
    return error;
  } finally {
    waiter.arrived = undefined;
  }
}

type Resumed =
  | { stream: HttpResponse; failure?: undefined; retryAfterMs?: undefined }
  | { stream?: undefined; failure: McpError; retryAfterMs: number | undefined };

/**
 * One GET + Last-Event-ID in the session the call was sent in. A failure that may pass (a broken
 * connection, 408, 429, 502, 503, 504) is handed back to be tried again; anything else ends the
 * stream with StreamTruncatedError. A session that is gone, or that another call has renewed
 * meanwhile, is never crossed: the event id means nothing in another session.
 */
async function resume(
  target: SessionTarget,
  session: Session,
  lastEventId: string,
  signal: AbortSignal,
  where: StreamOptions['where'],
): Promise<Resumed> {
  const { config } = target;
  if (session.lost || target.session !== session) throw new SessionNotFound(true);
  let response: HttpResponse;
  let text: string;
  try {
    response = await httpRequest(config, {
      method: 'GET',
      accept: ACCEPT_STREAM,
      sessionId: session.id,
      version: session.headerVersion,
      envelope: { 'last-event-id': lastEventId },
      signal,
    });
    if (response.status === 404 && session.id !== undefined) {
      discard(response);
      session.lost = true;
      throw new SessionNotFound(true);
    }
    if (response.status === 200 && response.mediaType === 'text/event-stream')
      return { stream: response };
    text = await readText(response, config.maxResponseBytes, config.url, signal);
  } catch (error) {
    if (signal.aborted || error instanceof SessionNotFound) throw error;
    if (error instanceof TransportError) return { failure: error, retryAfterMs: undefined };
    // Anything else (a refused token, a body too large) ends the stream: the POST stands.
    throw new StreamTruncatedError({ ...where, cause: error });
  }
  const failure = statusError(response, text, { url: config.url, method: 'GET' });
  // A status that may pass: the resume is tried again, within its budget.
  if (transientStatus(response.status)) return { failure, retryAfterMs: failure.retryAfterMs };
  // 405: the server offers no resumption. Anything else: it will not give this stream back.
  throw new StreamTruncatedError({ ...where, bodyExcerpt: excerpt(text), cause: failure });
}

/** POSTs a notification or a response to a server request; the server owes only a 202. */
export async function deliver(
  target: SessionTarget,
  message: JsonRpcMessage,
  signal: AbortSignal,
): Promise<void> {
  const { config } = target;
  const method = 'method' in message ? message.method : 'response';
  let response: HttpResponse;
  try {
    response = await post(target, message, signal);
  } catch (error) {
    if (!(error instanceof SessionNotFound)) throw error;
    throw new SessionExpiredError({
      url: config.url,
      method,
      reason: 'session expired',
      retryable: false,
    });
  }
  if (response.status >= 200 && response.status < 300) return discard(response);
  const text = await readText(response, config.maxResponseBytes, config.url, signal);
  throw statusError(response, text, { url: config.url, method });
}

/**
 * POSTs one message with a session's headers. A 404 to a message that carried the session's id
 * means the server forgot the session without acting on the message.
 */
function post(
  target: SessionTarget,
  message: JsonRpcMessage,
  signal: AbortSignal,
  session = target.session,
  envelope?: Record<string, string>,
): Promise<HttpResponse> {
  const carriedSession = session.id !== undefined;
  const sent = httpRequest(target.config, {
    method: 'POST',
    accept: ACCEPT_RESPONSE,
    sessionId: session.id,
    version: session.headerVersion,
    envelope,
    body: message,
    signal,
  });
  return carriedSession ? sent.then((response) => known(response, session)) : sent;
}

/** The response, unless it is the 404 that says the server forgot the session it was sent in. */
function known(response: HttpResponse, session: Session): HttpResponse {
  if (response.status !== 404) return response;
  discard(response);
  session.lost = true;
  throw new SessionNotFound(false);
}
