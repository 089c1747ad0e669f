/**
 * HTTP over one undici dispatcher: plain functions, no state. Everything above this file sees a
 * small response type and toolwire errors; undici's own errors never leak past here.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import type { Dispatcher, Agent as UndiciAgent } from 'undici';
import { wireSignal } from '../../core/deadline.ts';
import { HttpStatusError, ResponseTooLargeError, TransportError } from '../../core/errors.ts';
import { transientStatus } from '../../core/wire-codes.ts';

// undici is loaded by its public entry when the first client is made, not when the package is
// imported: most of it (fetch, WebSocket, its cache and mocks) is never used here.
const load = createRequire(import.meta.url);

let undici: typeof import('undici') | undefined;

/** A pooled undici Agent for one client, whose deadlines are its calls' own. */
export function createAgent(connectTimeoutMs: number): UndiciAgent {
  undici ??= load('undici') as typeof import('undici');
  // Deadlines belong to the call (core/deadline.ts), not to the socket: an SSE stream may stay quiet
  // for minutes while a tool reports no progress.
  return new undici.Agent({
    connect: { timeout: connectTimeoutMs },
    headersTimeout: 0,
    bodyTimeout: 0,
  });
}

/** Origin and path of the last URL sent to: a client sends nearly every request to one URL. */
let target = { url: '', origin: '', path: '' };

function targetOf(url: string): { origin: string; path: string } {
  if (target.url !== url) {
    const parsed = new URL(url);
    const path = parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname;
    target = { url, origin: parsed.origin, path };
  }
  return target;
}

export type HttpMethod = 'POST' | 'GET' | 'DELETE';

export interface HttpRequest {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** The media type alone, lower-cased, without parameters such as charset. */
  mediaType: string;
  header(name: string): string | undefined;
  body: Dispatcher.ResponseData['body'];
}

/** Connection errors that prove the server never saw the request: safe to send again. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Headers one call adds to every request it makes (`callTool(name, args, { headers })`): the call
 * runs inside this context, so whatever the dialect sends for it carries them.
 */
export const callHeaders = new AsyncLocalStorage<Record<string, string>>();

/**
 * What stands between a client's requests and the wire when headers change per request or
 * credentials are in play: headers asked for each request, and a look at each 401 or 403 before
 * the dialect sees it. gate-interceptor.ts puts it in a dispatcher.
 */
export interface RequestGate {
  /** Headers for this request, over the ones the dialect set (credentials, say). */
  headers(request: HttpRequest): Record<string, string> | Promise<Record<string, string>>;
  /**
   * The server answered 401 or 403. Resolves true when the request should go again with fresh
   * headers (new credentials), false to hand the answer to the dialect as it is; throws to fail
   * the request (an AuthorizationError). Sending again is not a retry attempt.
   */
  refused(request: HttpRequest, response: Refusal): Promise<boolean>;
}

/** What a gate reads of a refusal: its status and headers (a gRPC channel's come from a status). */
export type Refusal = Pick<HttpResponse, 'status' | 'header'>;

/** How many times one request may be sent with new credentials before its answer stands. */
export const MAX_GATE_ROUNDS = 5;

/**
 * The request as `send` described it, riding in the dispatch options: an interceptor that asks
 * the gate (gate-interceptor.ts) needs the URL as written and the call's AbortSignal, where undici
 * has only origin, path and the deadline's emitter. A field survives the copies interceptors make
 * of the options, which a WeakMap keyed by the options object would not.
 */
export const HTTP_REQUEST = Symbol('toolwire.httpRequest');

export interface SentOptions extends Dispatcher.RequestOptions {
  [HTTP_REQUEST]?: HttpRequest;
}

/**
 * An error of ours (a gate's, say) carried through undici from an interceptor: `send` throws what
 * it carries, where undici's own errors become a TransportError.
 */
export class CarriedError extends Error {
  readonly carried: unknown;
  constructor(carried: unknown) {
    super('an interceptor failed the request', { cause: carried });
    this.carried = carried;
  }
}

export function send(dispatcher: Dispatcher, req: HttpRequest): Promise<HttpResponse> {
  const perCall = callHeaders.getStore();
  if (perCall) req = { ...req, headers: { ...req.headers, ...perCall } };
  return transmit(dispatcher, req);
}

async function transmit(dispatcher: Dispatcher, req: HttpRequest): Promise<HttpResponse> {
  // undici is given the deadline's emitter, which carries no reason: it must not start at all
  // once the call is over.
  req.signal.throwIfAborted();
  let response: Dispatcher.ResponseData;
  try {
    const { origin, path } = targetOf(req.url);
    const options: SentOptions = {
      origin,
      path,
      method: req.method,
      headers: req.headers,
      body: req.body ?? null,
      signal: wireSignal(req.signal),
      [HTTP_REQUEST]: req,
    };
    response = await dispatcher.request(options);
  } catch (error) {
    if (req.signal.aborted) throw req.signal.reason;
    if (error instanceof CarriedError) throw error.carried;
    throw transportError(error, req.url);
  }
  return new UndiciResponse(response);
}

/** undici's answer as an HttpResponse: a class, so a response costs no closure. */
class UndiciResponse implements HttpResponse {
  readonly status: number;
  readonly mediaType: string;
  readonly body: Dispatcher.ResponseData['body'];
  readonly #headers: Dispatcher.ResponseData['headers'];
  constructor(response: Dispatcher.ResponseData) {
    this.status = response.statusCode;
    this.#headers = response.headers;
    this.mediaType = mediaType(headerValue(response.headers['content-type']));
    this.body = response.body;
  }
  header(name: string): string | undefined {
    return headerValue(this.#headers[name]);
  }
}

export function transportError(error: unknown, url: string): TransportError {
  const code = errorCode(error);
  const sent = !neverSent(error);
  const reason = error instanceof Error ? error.message : String(error);
  return new TransportError(`connection failed (${code || reason})`, {
    url,
    cause: error,
    retryable: true,
    requestSent: sent,
  });
}

/** Whether a connection error proves the server never saw the request. */
export function neverSent(error: unknown): boolean {
  return NOT_SENT_CODES.has(errorCode(error));
}

/** The first Node error code (`ECONNREFUSED`) in an error's chain of causes, or ''. */
export function errorCode(error: unknown): string {
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return '';
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function mediaType(contentType: string | undefined): string {
  if (!contentType) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * Reads a whole body as text, failing as soon as it grows past `limit` bytes. Read with 'data'
 * events: an async iterator over the body costs a generator and an end-of-stream watcher per call.
 */
export function readText(
  response: HttpResponse,
  limit: number,
  url: string,
  signal: AbortSignal,
): Promise<string> {
  const declared = Number(response.header('content-length'));
  if (declared > limit) {
    abandon(response);
    return Promise.reject(
      new ResponseTooLargeError('body', limit, { url, status: response.status }),
    );
  }
  const body = response.body;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      stop();
      abandon(response);
      reject(new ResponseTooLargeError('body', limit, { url, status: response.status }));
    };
    const onEnd = () => {
      stop();
      resolve(
        chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'),
      );
    };
    const onError = (error: unknown) => {
      stop();
      reject(signal.aborted ? signal.reason : transportError(error, url));
    };
    const stop = () => {
      body.off('data', onData).off('end', onEnd).off('error', onError);
    };
    body.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/** Drops a body we will not read; a short one is drained so the socket can go back to the pool. */
export function discard(response: HttpResponse): void {
  response.body.dump({ limit: 64 * 1024 }).catch(() => {});
}

/** Stops reading a body for good. The listener keeps the destroy from surfacing as an uncaught error. */
export function abandon(response: HttpResponse): void {
  response.body.on('error', () => {});
  response.body.destroy();
}

const MAX_EXCERPT = 200;
const MAX_REASON = 160;

/**
 * The first line of a plain-text error body, which often names the fix ("Access is only allowed
 * at localhost:8931"). Markup and JSON are left to `bodyExcerpt`: their first line says nothing.
 */
export function reasonOf(mediaType: string, text: string): string | undefined {
  if (mediaType !== 'text/plain' && mediaType !== '') return undefined;
  const line = text
    .split(/\r?\n/, 8)
    .map((part) => part.trim())
    .find((part) => part !== '');
  if (!line || /^[<{[]/.test(line)) return undefined;
  return line.length > MAX_REASON ? `${line.slice(0, MAX_REASON)}…` : line;
}

export function excerpt(text: string): string {
  return text.length > MAX_EXCERPT ? `${text.slice(0, MAX_EXCERPT)}…` : text;
}

/** The three HTTP-date forms of RFC 9110 §5.6.7: IMF-fixdate, RFC 850 and asctime. */
const HTTP_DATE = [
  /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Za-z]+, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/**
 * `Retry-After` as milliseconds from now: delta-seconds or an HTTP-date, per RFC 9110. Anything
 * else is ignored; Date.parse alone would read "-5" or "in 3000" as dates.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!HTTP_DATE.some((form) => form.test(trimmed))) return undefined;
  // asctime carries no zone; RFC 9110 says it is GMT.
  const date = Date.parse(trimmed.endsWith('GMT') ? trimmed : `${trimmed} GMT`);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** An HTTP status without a usable JSON-RPC body, with what the server said about waiting. */
export function statusError(
  response: HttpResponse,
  text: string,
  context: { url: string; method?: string; tool?: string | undefined },
): HttpStatusError {
  const status = response.status;
  const error = new HttpStatusError(status, {
    ...context,
    reason: reasonOf(response.mediaType, text),
    bodyExcerpt: excerpt(text),
    retryAfterMs: parseRetryAfter(response.header('retry-after')),
    retryable: transientStatus(status),
  });
  if (status === 401 || status === 403) {
    // Kept out of sight (not enumerable): only its scheme and the names of its params are told.
    Object.defineProperty(error, CHALLENGE, { value: response.header('www-authenticate') });
  }
  return error;
}

const CHALLENGE = Symbol('www-authenticate');

/** The `WWW-Authenticate` header a 401 or 403 came with, if any. */
export function challengeOf(error: HttpStatusError): string | undefined {
  return (error as { [CHALLENGE]?: string | undefined })[CHALLENGE];
}
