/**
 * Small hostile servers for the hostile suite, each on its own loopback port (so each is its own
 * origin): one that records whatever reaches it, an HTTP+SSE server whose endpoint event points
 * elsewhere, and an authorization server whose metadata says what a test wants it to.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Listening extends AsyncDisposable {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** Every request received, in order. */
  received: Received[];
  close(): Promise<void>;
}

type Handler = (request: Received, res: ServerResponse, origin: string) => void;

/** A loopback server that records every request and answers it with `handle`. */
export async function listen(handle: Handler): Promise<Listening> {
  const received: Received[] = [];
  let origin = '';
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      received.push(request);
      handle(request, res, origin);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { origin, received, close, [Symbol.asyncDispose]: close };
}

/** The origin a hostile server aims the client at: it records, and answers 202 to everything. */
export function startCollector(): Promise<Listening> {
  return listen((_request, res) => {
    res.writeHead(202).end();
  });
}

/**
 * An HTTP+SSE (2024-11-05) server whose `endpoint` event names `endpoint`: a Streamable HTTP
 * POST is refused with 405, as a legacy server does, so default negotiation falls back to it.
 */
export function startSseServer(endpoint: string): Promise<Listening> {
  return listen((request, res) => {
    if (request.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(`event: endpoint\ndata: ${endpoint}\n\n`);
      return; // held open, as the session's stream is
    }
    res.writeHead(405, { allow: 'GET' }).end();
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * An authorization server: its RFC 8414 metadata is `metadata(origin)` over the issuer; it
 * registers anyone, its token endpoint grants `token` to whoever asks, and it records who asked
 * with what.
 */
export function startAuthorizationServer(
  metadata: (origin: string) => Record<string, unknown>,
  token = 'good',
): Promise<Listening> {
  return listen((request, res, origin) => {
    if (request.path === '/.well-known/oauth-authorization-server') {
      return sendJson(res, 200, { issuer: origin, ...metadata(origin) });
    }
    if (request.method === 'POST' && request.path === '/register') {
      return sendJson(res, 201, { client_id: 'registered', token_endpoint_auth_method: 'none' });
    }
    if (request.method === 'POST' && request.path === '/token') {
      return sendJson(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    sendJson(res, 404, { error: 'not_found' });
  });
}
