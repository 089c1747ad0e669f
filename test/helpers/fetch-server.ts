/**
 * Serves a fetch-style handler (`Request` in, `Response` out) on a loopback port with node:http,
 * for the servers that are written against the Fetch API (mcp-lite, the official v2 server).
 * Streamed bodies are written as they come, and a client that hangs up cancels the body, so a
 * server sees a dropped SSE stream the way it would behind any other adapter.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { expect } from 'vitest';

export type FetchHandler = (request: Request) => Response | Promise<Response>;

export interface SeenRequest {
  method: string;
  headers: Headers;
  /** The status the handler answered with, once it has. */
  status?: number;
}

export interface LoopbackServer extends AsyncDisposable {
  url: string;
  /** Every HTTP request received, in order (method and headers). */
  requests: SeenRequest[];
  close(): Promise<void>;
}

export interface ServeOptions {
  /**
   * How long an idle connection is kept. Long by default, so that counting sockets after
   * `client.close()` shows whether the client closed its own.
   */
  keepAliveMs?: number;
  /** Runs after the HTTP server has stopped (to close what the handler owns). */
  onClose?: () => Promise<void> | void;
}

export async function serveFetch(
  handler: FetchHandler,
  options: ServeOptions = {},
): Promise<LoopbackServer> {
  const requests: SeenRequest[] = [];
  const http = createServer((req, res) => {
    respond(handler, req, res, requests).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  http.keepAliveTimeout = options.keepAliveMs ?? 60_000;
  const port = await listen(http);
  const close = async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await options.onClose?.();
  };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Listens on a free loopback port and returns it. */
export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/**
 * A loopback port that was free a moment ago, for servers that choose their own port and do not
 * say which one they got when given 0.
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function respond(
  handler: FetchHandler,
  req: IncomingMessage,
  res: ServerResponse,
  requests: SeenRequest[],
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  const seen: SeenRequest = { method, headers };
  requests.push(seen);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const hungUp = new AbortController();
  res.on('close', () => hungUp.abort());
  const init: RequestInit = { method, headers, signal: hungUp.signal };
  if (method !== 'GET' && method !== 'HEAD') init.body = Buffer.concat(chunks);
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, init);
  const response = await handler(request);
  seen.status = response.status;
  const outgoing: Record<string, string> = {};
  for (const [name, value] of response.headers) outgoing[name] = value;
  res.writeHead(response.status, outgoing);
  if (!response.body) {
    res.end();
    return;
  }
  // An event stream must reach the client before its first event does.
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done || res.destroyed) break;
    res.write(value);
  }
  res.end();
}

/**
 * Closes `client` and checks it deleted the session the server gave it: one DELETE carrying that
 * session id and the negotiated version header, answered 200.
 */
export async function expectSessionDeleted(
  client: { close(): Promise<void> },
  requests: readonly SeenRequest[],
  version: string,
): Promise<void> {
  const sessionId = requests.map((r) => r.headers.get('mcp-session-id')).find((id) => id !== null);
  expect(sessionId).toEqual(expect.any(String));
  await client.close();
  const deletes = requests.filter((r) => r.method === 'DELETE');
  expect(deletes).toHaveLength(1);
  expect(deletes[0]?.headers.get('mcp-session-id')).toBe(sessionId);
  expect(deletes[0]?.headers.get('mcp-protocol-version')).toBe(version);
  expect(deletes[0]?.status).toBe(200);
}
