/**
 * The execution envelope: `POST {url}/` with `{ sessionId, version, action, config, request }`,
 * answered `{ status: "ok", data }` or `{ status: "error", error: { code, message } }`. `ok` is
 * the final result, `data` as structured content with a JSON text rendering; `error` is a
 * WebtoolError carrying the string code. A RATE_LIMIT refusal (429 or 503) goes to the retry
 * policy first, Retry-After honoured; the WebtoolError is what is left when it gives up.
 */
import type { Deadline } from '../../core/deadline.ts';
import {
  ContentTypeError,
  type ErrorContext,
  HttpStatusError,
  MalformedMessageError,
  WebtoolError,
} from '../../core/errors.ts';
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';
import type { Outcome } from '../../core/outcome.ts';
import {
  excerpt,
  parseRetryAfter,
  readText,
  send,
  statusError,
} from '../../wire/transport/http.ts';
import { withRetry } from '../../wire/transport/retry.ts';
import { type HttpConfig, webtoolUrl } from './http.ts';

export interface Execution {
  sessionId: string;
  version: string | undefined;
  action: string;
  config: JsonObject | undefined;
  request: JsonObject;
}

/** Statuses by which a rate-limited server says it did not run the request. */
const REFUSED = new Set([429, 503]);

export async function execute(
  config: HttpConfig,
  execution: Execution,
  where: ErrorContext,
  options: { idempotent: boolean; deadline: Deadline },
): Promise<Outcome> {
  const url = webtoolUrl(config.url);
  const { deadline } = options;
  const body: JsonObject = { sessionId: execution.sessionId };
  if (execution.version !== undefined) body['version'] = execution.version;
  body['action'] = execution.action;
  if (execution.config !== undefined) body['config'] = execution.config;
  body['request'] = execution.request;
  try {
    return await withRetry(
      async (): Promise<Outcome> => {
        const response = await send(config.dispatcher, {
          url,
          method: 'POST',
          headers: {
            ...config.headers,
            accept: 'application/json',
            'content-type': 'application/json',
          },
          body: JSON.stringify(body),
          signal: deadline.signal,
        });
        const text = await readText(response, config.maxResponseBytes, url, deadline.signal);
        const at = { ...where, url, status: response.status };
        const value = parseJson(text);
        const error = envelopeError(value, at);
        if (error) {
          if (error.webtoolCode === 'RATE_LIMIT' && REFUSED.has(response.status)) {
            throw new HttpStatusError(response.status, {
              ...at,
              retryable: true,
              retryAfterMs: parseRetryAfter(response.header('retry-after')),
              cause: error,
            });
          }
          return { kind: 'failure', error };
        }
        if (isObject(value?.json) && value.json['status'] === 'ok') {
          return { kind: 'complete', result: resultOf(value.json['data']) };
        }
        if (response.status < 200 || response.status >= 300)
          throw statusError(response, text, { ...at, method: where.method ?? 'tools/call' });
        if (response.mediaType !== 'application/json') {
          throw new ContentTypeError(response.mediaType, { ...at, bodyExcerpt: excerpt(text) });
        }
        throw new MalformedMessageError('not a webtool envelope (no status "ok" or "error")', {
          ...at,
          bodyExcerpt: excerpt(text),
        });
      },
      config.retry,
      options,
    );
  } catch (error) {
    // The retries ran out on a rate limit: what the caller wants is the webtool's own error.
    if (error instanceof HttpStatusError && error.cause instanceof WebtoolError) {
      return { kind: 'failure', error: error.cause };
    }
    throw error;
  }
}

function resultOf(data: unknown): JsonObject {
  const text = typeof data === 'string' ? data : JSON.stringify(data ?? null);
  return { content: [{ type: 'text', text }], structuredContent: data ?? null, isError: false };
}

export function parseJson(text: string): { json: unknown } | undefined {
  try {
    return { json: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** The WebtoolError an error envelope carries, or undefined for anything else. */
export function envelopeError(
  value: { json: unknown } | undefined,
  where: ErrorContext,
): WebtoolError | undefined {
  const json = value?.json;
  if (!isObject(json) || json['status'] !== 'error') return undefined;
  const error = isObject(json['error']) ? json['error'] : {};
  const code = typeof error['code'] === 'string' ? error['code'] : 'INTERNAL_ERROR';
  const message = typeof error['message'] === 'string' ? error['message'] : '';
  return new WebtoolError(code, message, where);
}

/**
 * Whether a body (or the excerpt of one, possibly cut short) is a webtool envelope: what a
 * Webtools server answers a POST that carries no action, the `server/discover` probe included.
 */
export function isEnvelope(text: string | undefined): boolean {
  if (!text) return false;
  const value = parseJson(text);
  if (value) {
    const json = value.json;
    return (
      isObject(json) &&
      (json['status'] === 'ok' ||
        (json['status'] === 'error' &&
          isObject(json['error']) &&
          typeof json['error']['code'] === 'string'))
    );
  }
  return /"status"\s*:\s*"error"/.test(text) && /"code"\s*:\s*"[^"]*"/.test(text);
}
