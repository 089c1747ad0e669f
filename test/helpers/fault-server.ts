/**
 * Faults a real server cannot produce on demand, served over a real loopback socket.
 *
 * msw cannot intercept undici's own `request()`, so its handlers run behind a small node:http
 * server instead: each request becomes a web Request, msw's `getResponse` picks the answer, and
 * the answer is written back as it is, or cut off mid-body. The client under test runs its
 * real code path, sockets included.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse, HttpResponse, http, type RequestHandler } from 'msw';

export interface ReceivedCall {
  method: string;
  headers: Headers;
  /** The parsed JSON-RPC body of a POST. */
  body: Record<string, unknown> | undefined;
}

export interface FaultServer extends AsyncDisposable {
  url: string;
  port: number;
  /** Every request received, in order. */
  calls: ReceivedCall[];
  /** POST bodies whose JSON-RPC method is `method`. */
  callsOf(method: string): ReceivedCall[];
  close(): Promise<void>;
}

/** Tells the fault server to destroy the socket instead of answering. */
export const CUT = Symbol('cut');
export type Reply = Response | typeof CUT | undefined;

export interface FaultServerOptions {
  port?: number;
  /** How long the server keeps an idle connection; make it long to see whether the client closes its own. */
  keepAliveMs?: number;
}

export async function startFaultServer(
  handlers: RequestHandler[],
  options: FaultServerOptions = {},
): Promise<FaultServer> {
  const port = options.port ?? 0;
  const calls: ReceivedCall[] = [];
  const server = createServer((req, res) => {
    serve(req, res, handlers, calls).catch(() => res.destroy());
  });
  server.keepAliveTimeout = options.keepAliveMs ?? 500;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    port: address.port,
    calls,
    callsOf: (method) => calls.filter((call) => call.body?.['method'] === method),
    close,
    [Symbol.asyncDispose]: close,
  };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  handlers: RequestHandler[],
  calls: ReceivedCall[],
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  let body: Record<string, unknown> | undefined;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  } catch {
    body = undefined;
  }
  calls.push({ method: req.method ?? 'GET', headers, body });
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method ?? 'GET',
    headers,
    body: req.method === 'GET' || req.method === 'HEAD' ? null : text,
  });
  const response = await getResponse(handlers, request);
  if (!response) {
    res.writeHead(501).end('no handler');
    return;
  }
  if (response.headers.get('x-fault') === 'cut') {
    res.destroy();
    return;
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  try {
    for await (const chunk of response.body) {
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  } catch {
    // The handler's stream failed on purpose: the client sees the connection drop mid-body.
    // Node sends the first chunk with the headers on the next tick; let it go out first.
    await new Promise((resolve) => setImmediate(resolve));
    res.destroy();
  }
}

// --- MCP building blocks for fault handlers -------------------------------------------------

type JsonRpc = { id?: string | number; method?: string; params?: Record<string, unknown> };

/** What a fault handler does with one JSON-RPC request; `undefined` falls back to a sane answer. */
export type McpFault = (message: JsonRpc, request: Request) => Reply | Promise<Reply>;

/**
 * A minimal stateful MCP server on `/mcp`: it answers `initialize` (session `s-1`), accepts
 * notifications with 202, has no GET stream (405), and hands every other request to `fault`.
 */
export function mcpServer(
  fault: McpFault,
  options: { version?: string; sessionId?: string } = {},
): RequestHandler[] {
  const version = options.version ?? '2025-11-25';
  const sessionHeaders: Record<string, string> =
    options.sessionId === undefined ? {} : { 'mcp-session-id': options.sessionId };
  return [
    http.get('*/mcp', () => new HttpResponse(null, { status: 405 })),
    http.delete('*/mcp', () => new HttpResponse(null, { status: 204 })),
    http.post('*/mcp', async ({ request }) => {
      const message = (await request.clone().json()) as JsonRpc;
      if (message.method === 'initialize') {
        return HttpResponse.json(
          {
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: version,
              capabilities: { tools: { listChanged: true } },
              serverInfo: { name: 'fault-server', version: '1.0.0' },
            },
          },
          { headers: sessionHeaders },
        );
      }
      if (message.id === undefined) return new HttpResponse(null, { status: 202 });
      const reply = await fault(message, request);
      if (reply === CUT) return new HttpResponse(null, { headers: { 'x-fault': 'cut' } });
      if (reply) return reply;
      if (message.method === 'tools/list') {
        return HttpResponse.json({ jsonrpc: '2.0', id: message.id, result: { tools: TOOLS } });
      }
      return HttpResponse.json({ jsonrpc: '2.0', id: message.id, result: {} });
    }),
  ];
}

/** Tools the fault server lists: one idempotent, one not. */
export const TOOLS = [
  { name: 'safe', inputSchema: { type: 'object' }, annotations: { idempotentHint: true } },
  { name: 'unsafe', inputSchema: { type: 'object' } },
];

export function result(id: JsonRpc['id'], value: Record<string, unknown>): Response {
  return HttpResponse.json({ jsonrpc: '2.0', id, result: value });
}

/** An SSE body from raw event text, optionally failing (connection drop) after the last chunk. */
export function sseBody(
  events: string[],
  options: { breakAfter?: boolean; status?: number } = {},
): Response {
  const encoder = new TextEncoder();
  let sent = false;
  // Chunks go out from pull(), one read at a time: erroring a stream drops what is still queued.
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(encoder.encode(events.join('')));
      } else if (options.breakAfter) controller.error(new Error('cut'));
      else controller.close();
    },
  });
  return new Response(stream, {
    status: options.status ?? 200,
    headers: { 'content-type': 'text/event-stream' },
  });
}

export function sseEvent(data: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** The sessions a `sessionServer` keeps; tests read and drop them. */
export interface Sessions {
  /** Every session id the server handed out, in order (`s-1`, `s-2`, ...). */
  opened: string[];
  /** The sessions the server still knows. */
  live: Set<string>;
  /** Forgets every session: a request carrying one is answered 404 from now on. */
  drop(): void;
}

/** A fault handler that also sees the session the request carried (`undefined` for none). */
export type SessionFault = (
  message: JsonRpc,
  request: Request,
  session: string | undefined,
) => Reply | Promise<Reply>;

/**
 * A stateful MCP server on `/mcp` that keeps sessions as a real one does: each `initialize` opens
 * a new one (`s-1`, `s-2`, ...), a request carrying a session the server forgot gets 404, and one
 * carrying none gets the official SDK's 400 / -32000. `fault` sees every POST first (initialize
 * and notifications included) and `get` every GET of a known session; `undefined` falls back to
 * a sane answer.
 */
export function sessionServer(
  fault: SessionFault,
  options: { get?: (request: Request, session: string) => Reply | Promise<Reply> } = {},
): { handlers: RequestHandler[]; sessions: Sessions } {
  const sessions: Sessions = {
    opened: [],
    live: new Set(),
    drop: () => sessions.live.clear(),
  };
  const known = (request: Request): Response | string => {
    const id = request.headers.get('mcp-session-id');
    if (id === null) {
      return HttpResponse.json(
        {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: 'Bad Request: Server not initialized' },
        },
        { status: 400 },
      );
    }
    return sessions.live.has(id) ? id : new HttpResponse(null, { status: 404 });
  };
  const reply = (value: Reply): Response | undefined =>
    value === CUT ? new HttpResponse(null, { headers: { 'x-fault': 'cut' } }) : value;
  const handlers = [
    http.get('*/mcp', async ({ request }) => {
      const session = known(request);
      if (typeof session !== 'string') return session;
      return (
        reply(await options.get?.(request, session)) ?? new HttpResponse(null, { status: 405 })
      );
    }),
    http.delete('*/mcp', () => new HttpResponse(null, { status: 204 })),
    http.post('*/mcp', async ({ request }) => {
      const message = (await request.clone().json()) as JsonRpc;
      if (message.method === 'initialize') {
        const faulted = reply(await fault(message, request, undefined));
        if (faulted) return faulted;
        const id = `s-${sessions.opened.length + 1}`;
        sessions.opened.push(id);
        sessions.live.add(id);
        return HttpResponse.json(
          {
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: '2025-11-25',
              capabilities: { tools: { listChanged: true } },
              serverInfo: { name: 'session-server', version: '1.0.0' },
            },
          },
          { headers: { 'mcp-session-id': id } },
        );
      }
      const session = known(request);
      if (typeof session !== 'string') return session;
      const faulted = reply(await fault(message, request, session));
      if (faulted) return faulted;
      if (message.id === undefined) return new HttpResponse(null, { status: 202 });
      if (message.method === 'tools/list') {
        return HttpResponse.json({ jsonrpc: '2.0', id: message.id, result: { tools: TOOLS } });
      }
      return HttpResponse.json({ jsonrpc: '2.0', id: message.id, result: {} });
    }),
  ];
  return { handlers, sessions };
}

/**
 * An SSE body that sends `events` at once, then stays open until `until` settles: resolved, the
 * stream ends cleanly; rejected, the connection drops. Never settled, it stays open.
 */
export function sseHeld(
  events: string[],
  until: Promise<unknown> = new Promise(() => {}),
): Response {
  const encoder = new TextEncoder();
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(encoder.encode(events.join('')));
        return;
      }
      try {
        await until;
        controller.close();
      } catch {
        controller.error(new Error('cut'));
      }
    },
  });
  return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
}
