/** Helpers for 2026-07-28 requests in tests: the per-request `_meta` and mirrored headers. */
import { type Exchange, readExchange } from './client.ts';

export const MODERN = '2026-07-28';

/** The `_meta` every 2026-07-28 request carries, with `extra` merged over it. */
export function modernMeta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'reference-server-tests', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
    ...extra,
  };
}

export interface ModernOptions {
  /** Extra headers; a value of `null` removes a header the helper would send. */
  headers?: Record<string, string | null>;
  /** Merged over the default `_meta`. */
  meta?: Record<string, unknown>;
  /** Sends the params exactly as given, without adding `_meta`. */
  rawParams?: boolean;
  signal?: AbortSignal;
}

/** The headers a conforming client sends for `method` (and `Mcp-Name` when the body has one). */
export function modernHeaders(
  method: string,
  params: Record<string, unknown>,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
  };
  const name = method === 'resources/read' ? params['uri'] : params['name'];
  if (
    ['tools/call', 'prompts/get', 'resources/read'].includes(method) &&
    typeof name === 'string'
  ) {
    headers['mcp-name'] = name;
  }
  // The tasks extension routes by task.
  if (method.startsWith('tasks/') && typeof params['taskId'] === 'string') {
    headers['mcp-name'] = params['taskId'];
  }
  return headers;
}

/** POSTs one modern request. */
export function modernFetch(
  url: string,
  id: string | number,
  method: string,
  params: Record<string, unknown> = {},
  options: ModernOptions = {},
): Promise<Response> {
  const body = options.rawParams === true ? params : { ...params, _meta: modernMeta(options.meta) };
  const headers: Record<string, string> = modernHeaders(method, params);
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === null) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  const init: RequestInit = {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: body }),
  };
  if (options.signal !== undefined) init.signal = options.signal;
  return fetch(url, init);
}

/** POSTs one modern request and reads its whole answer. */
export async function modern(
  url: string,
  id: string | number,
  method: string,
  params: Record<string, unknown> = {},
  options: ModernOptions = {},
): Promise<Exchange> {
  return readExchange(await modernFetch(url, id, method, params, options), id);
}

/** `=?base64?…?=`, the sentinel form of a header value. */
export function base64Sentinel(value: string): string {
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
