import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorMessage } from './jsonrpc.ts';

/** The media type of a Content-Type header, lower-cased, without parameters such as charset. */
export function mediaType(header: string | undefined): string | undefined {
  return header?.split(';')[0]?.trim().toLowerCase();
}

/** Whether an Accept header admits `type`, honouring wildcards and `q=0` exclusions. */
export function accepts(header: string | undefined, type: string): boolean {
  if (header === undefined) return false;
  const [major] = type.split('/');
  return header.split(',').some((range) => {
    const [name = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const refused = parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter));
    return !refused && (name === type || name === `${major}/*` || name === '*/*');
  });
}

/** A single request header as a string (Node joins repeated custom headers with ", "). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Request headers as a plain record with lower-cased names. */
export function headerRecord(req: IncomingMessage): Record<string, string> {
  const record: Record<string, string> = {};
  for (const name of Object.keys(req.headers)) {
    const value = header(req, name);
    if (value !== undefined) record[name] = value;
  }
  return record;
}

/** Sends a JSON body with the given status. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(payload)),
    ...headers,
  });
  res.end(payload);
}

/** Sends a transport-level refusal: an HTTP error status with a JSON-RPC error body (id null). */
export function sendRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  data?: unknown,
): void {
  sendJson(res, status, errorMessage(null, code, message, data));
}

/** Sends a status with no body. */
export function sendEmpty(
  res: ServerResponse,
  status: number,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, headers);
  res.end();
}

/** The host part of a URL for a bound address: wildcards are reached through loopback. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
