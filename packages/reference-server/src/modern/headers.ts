/**
 * The request headers 2026-07-28 mirrors from the body (`Mcp-Method`, `Mcp-Name`,
 * `Mcp-Param-*`): a server that reads the body must refuse any that disagree with it, so that
 * intermediaries routing on headers cannot be told one thing while the server does another.
 */
import type { IncomingMessage } from 'node:http';
import { header } from '../http-util.ts';
import { isObject, type JsonObject } from '../jsonrpc.ts';
import { ModernCode, Refusal } from './envelope.ts';

const SENTINEL = /^=\?base64\?(.*)\?=$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** What HTTP can carry in a field value: visible ASCII, space and tab. */
const PLAIN = /^[\t\x20-\x7e]*$/;

function mismatch(message: string): Refusal {
  return new Refusal(400, ModernCode.HeaderMismatch, `Header mismatch: ${message}`);
}

/** A header value as the client meant it: base64 sentinels decoded, odd characters refused. */
export function decodeHeaderValue(name: string, raw: string): string {
  if (!PLAIN.test(raw)) throw mismatch(`${name} contains characters HTTP cannot carry`);
  const encoded = SENTINEL.exec(raw)?.[1];
  if (encoded === undefined) return raw;
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) {
    throw mismatch(`${name} is not valid base64 inside =?base64?...?=`);
  }
  return Buffer.from(encoded, 'base64').toString('utf8');
}

/** The body value `Mcp-Name` mirrors for a method, or undefined when the method has none. */
function nameSource(method: string, params: JsonObject): { value: unknown } | undefined {
  if (method === 'tools/call' || method === 'prompts/get') return { value: params['name'] };
  if (method === 'resources/read') return { value: params['uri'] };
  // The tasks extension routes by task (SEP-2663).
  if (method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel') {
    return { value: params['taskId'] };
  }
  return undefined;
}

/** Checks `Mcp-Method` and, where the method has one, `Mcp-Name`. */
export function checkStandardHeaders(
  req: IncomingMessage,
  method: string,
  params: JsonObject,
): void {
  const sentMethod = header(req, 'mcp-method');
  if (sentMethod === undefined) throw mismatch('Mcp-Method header is required');
  if (sentMethod !== method) {
    throw mismatch(`Mcp-Method header value '${sentMethod}' does not match body value '${method}'`);
  }
  const source = nameSource(method, params);
  if (source === undefined) return;
  const raw = header(req, 'mcp-name');
  if (raw === undefined) throw mismatch(`Mcp-Name header is required for ${method}`);
  const sent = decodeHeaderValue('Mcp-Name', raw);
  if (sent !== source.value) {
    throw mismatch(
      `Mcp-Name header value '${sent}' does not match body value '${String(source.value)}'`,
    );
  }
}

/** One `x-mcp-header` marking: the header's name part, the property path and its type. */
interface Marking {
  readonly name: string;
  readonly path: readonly string[];
  readonly type: unknown;
}

/** The markings of a schema, found only through chains of `properties`, as the spec allows. */
export function headerMarkings(schema: JsonObject, path: readonly string[] = []): Marking[] {
  const properties = schema['properties'];
  if (!isObject(properties)) return [];
  return Object.entries(properties).flatMap(([key, child]) => {
    if (!isObject(child)) return [];
    const here = [...path, key];
    const own =
      typeof child['x-mcp-header'] === 'string'
        ? [{ name: child['x-mcp-header'], path: here, type: child['type'] }]
        : [];
    return [...own, ...headerMarkings(child, here)];
  });
}

function valueAt(args: JsonObject, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  return value;
}

/** Whether a decoded header value stands for the body value (integers compare numerically). */
function sameValue(sent: string, value: unknown): boolean {
  if (typeof value === 'string') return sent === value;
  if (typeof value === 'boolean') return sent === String(value);
  if (typeof value === 'number') return sent.trim() !== '' && Number(sent) === value;
  return false;
}

/** Checks every `Mcp-Param-{Name}` a tool's schema asks for against the call's arguments. */
export function checkParamHeaders(
  req: IncomingMessage,
  inputSchema: JsonObject,
  args: JsonObject,
): void {
  for (const marking of headerMarkings(inputSchema)) {
    const headerName = `Mcp-Param-${marking.name}`;
    const raw = header(req, headerName.toLowerCase());
    const value = valueAt(args, marking.path);
    if (value === undefined || value === null) {
      if (raw !== undefined) throw mismatch(`${headerName} is set but the argument is absent`);
      continue;
    }
    if (raw === undefined)
      throw mismatch(`${headerName} header is required when ${marking.path.join('.')} is given`);
    const sent = decodeHeaderValue(headerName, raw);
    if (!sameValue(sent, value)) {
      throw mismatch(
        `${headerName} header value '${sent}' does not match body value '${String(value)}'`,
      );
    }
  }
}
