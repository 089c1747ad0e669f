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

/** How a stub authorization server answers a token request: it may echo what it received. */
export type TokenAnswer = (request: Received, res: ServerResponse, origin: string) => void;

/**
 * An authorization server: its RFC 8414 metadata is `metadata(origin)` over the issuer; it
 * registers anyone (answering `registration`), its token endpoint grants `token` to whoever
 * asks (or answers as `token` says, when it is a function), and it records who asked with what.
 */
export function startAuthorizationServer(
  metadata: (origin: string) => Record<string, unknown>,
  token: string | TokenAnswer = 'good',
  registration: Record<string, unknown> = {
    client_id: 'registered',
    token_endpoint_auth_method: 'none',
  },
): Promise<Listening> {
  return listen((request, res, origin) => {
    if (request.path === '/.well-known/oauth-authorization-server') {
      return sendJson(res, 200, { issuer: origin, ...metadata(origin) });
    }
    if (request.method === 'POST' && request.path === '/register') {
      return sendJson(res, 201, registration);
    }
    if (request.method === 'POST' && request.path === '/token') {
      if (typeof token === 'function') return token(request, res, origin);
      return sendJson(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    sendJson(res, 404, { error: 'not_found' });
  });
}

export interface RpcMessage {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
}

/**
 * How a hostile MCP server answers one JSON-RPC request: `true` when it wrote the answer itself,
 * a string to send as the JSON body, as it is (so a key such as `__proto__` stays a real key), or
 * `undefined` for the plain answer.
 */
export type McpAnswer = (message: RpcMessage, res: ServerResponse) => true | string | undefined;

/**
 * A minimal stateful MCP server (Streamable HTTP, at any path): `server/discover` is an unknown
 * method (so the client falls back to `initialize`), `initialize` echoes the client's revision,
 * notifications get 202, GET 405, DELETE 204, and every request goes to `answer` first.
 */
export function startMcpServer(answer: McpAnswer): Promise<Listening> {
  return listen((request, res) => {
    if (request.method === 'GET') return void res.writeHead(405, { allow: 'POST' }).end();
    if (request.method === 'DELETE') return void res.writeHead(204).end();
    let message: RpcMessage;
    try {
      message = JSON.parse(request.body) as RpcMessage;
    } catch {
      return sendJson(res, 400, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'parse' },
      });
    }
    if (message.id === undefined) return void res.writeHead(202).end();
    const answered = answer(message, res);
    if (answered === true) return;
    const session = { 'content-type': 'application/json', 'mcp-session-id': 's-1' };
    if (typeof answered === 'string') return void res.writeHead(200, session).end(answered);
    const reply = (body: Record<string, unknown>) =>
      res.writeHead(200, session).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...body }));
    if (message.method === 'initialize') {
      return void reply({
        result: {
          protocolVersion: message.params?.['protocolVersion'],
          capabilities: { tools: {}, resources: {}, prompts: {} },
          serverInfo: { name: 'hostile', version: '1.0.0' },
        },
      });
    }
    if (message.method === 'tools/list') {
      return void reply({ result: { tools: [{ name: 'call', inputSchema: { type: 'object' } }] } });
    }
    if (message.method === 'server/discover' || message.method?.startsWith('server/')) {
      return void reply({ error: { code: -32601, message: 'Method not found' } });
    }
    reply({ result: {} });
  });
}

/**
 * Writes `chunk` to `res` as the socket takes it, `times` times at most, until the client goes
 * away; then holds the response open. Resolves when done writing.
 */
export async function flood(
  res: ServerResponse,
  chunk: string | Buffer | (() => string | Buffer),
  times: number,
  pauseMs = 0,
): Promise<void> {
  for (let n = 0; n < times && !res.destroyed; n++) {
    const next = typeof chunk === 'function' ? chunk() : chunk;
    if (!res.write(next)) {
      await new Promise<void>((resolve) => {
        res.once('drain', resolve);
        res.once('close', resolve);
      });
    }
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}
