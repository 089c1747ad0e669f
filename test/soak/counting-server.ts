/**
 * A small MCP server that counts how often each call ran, for the soak: the proof that nothing
 * ran twice and nothing was lost is on the server's side, whatever the client believed.
 *
 * Two tools, each called with a `key` that is unique per logical call: `once` (not idempotent)
 * and `safe` (`idempotentHint: true`). Both answer with their key, as JSON or (with `stream`) as
 * an event stream: a priming event with an id, then the response with another. Served at both
 * eras: 2025-11-25 with sessions, resumable streams (GET + Last-Event-ID) and a GET stream on
 * `/mcp`, and 2026-07-28 (stateless, `subscriptions/listen` held open) on `/modern`. Bare
 * node:http, loopback only.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingServer extends AsyncDisposable {
  /** The 2025-11-25 endpoint. */
  url: string;
  /** The 2026-07-28 endpoint. */
  modernUrl: string;
  port: number;
  /** How many times each key ran. */
  executions: Map<string, number>;
  /** Forgets a session, as a server that restarted or expired it would. */
  expire(sessionId: string): void;
  /** The key of the call whose stream an event id belongs to, if any. */
  keyOfEvent(eventId: string): string | undefined;
  close(): Promise<void>;
}

const TOOLS = [
  {
    name: 'once',
    description: 'Runs once per call: not idempotent.',
    inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
  },
  {
    name: 'safe',
    description: 'May run twice with no harm.',
    inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    annotations: { idempotentHint: true },
  },
];

interface CallStream {
  key: string;
  /** Every event of the stream, in order; a resume gets those after its Last-Event-ID. */
  events: string[];
}

interface Session {
  streams: Map<string, CallStream>;
  listeners: Set<ServerResponse>;
}

type Rpc = { id?: string | number; method?: string; params?: Record<string, unknown> };

export async function startCountingServer(): Promise<CountingServer> {
  const executions = new Map<string, number>();
  const sessions = new Map<string, Session>();
  const eventKeys = new Map<string, string>();
  const open = new Set<ServerResponse>();

  const run = (params: Record<string, unknown> | undefined): { key: string; stream: boolean } => {
    const args = (params?.['arguments'] ?? {}) as Record<string, unknown>;
    const key = String(args['key']);
    executions.set(key, (executions.get(key) ?? 0) + 1);
    return { key, stream: args['stream'] === true };
  };
  const resultOf = (key: string) => ({ content: [{ type: 'text', text: key }] });

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '').split('?')[0];
    if (path === '/modern') return modern(req, res, chunks);
    if (path !== '/mcp') return void res.writeHead(404).end();
    const sessionId = header(req, 'mcp-session-id');
    if (req.method === 'DELETE') {
      if (sessionId) endSession(sessionId);
      return void res.writeHead(200).end();
    }
    if (req.method === 'GET') return get(req, res, sessionId);
    const message = parse(chunks);
    if (!message) return json(res, 400, rpcError(null, -32700, 'Parse error'));
    if (message.method === 'initialize') {
      const id = randomUUID();
      sessions.set(id, { streams: new Map(), listeners: new Set() });
      return json(
        res,
        200,
        {
          jsonrpc: '2.0',
          id: message.id,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: { tools: { listChanged: true } },
            serverInfo: { name: 'counting-server', version: '1.0.0' },
          },
        },
        { 'mcp-session-id': id },
      );
    }
    if (!sessionId) return json(res, 400, rpcError(null, -32000, 'Bad Request: no session'));
    const session = sessions.get(sessionId);
    if (!session) return json(res, 404, rpcError(null, -32001, 'Session not found'));
    if (message.id === undefined) return void res.writeHead(202).end();
    switch (message.method) {
      case 'tools/list':
        return json(res, 200, { jsonrpc: '2.0', id: message.id, result: { tools: TOOLS } });
      case 'ping':
        return json(res, 200, { jsonrpc: '2.0', id: message.id, result: {} });
      case 'tools/call': {
        const { key, stream } = run(message.params);
        const response = { jsonrpc: '2.0', id: message.id, result: resultOf(key) };
        if (!stream) return json(res, 200, response);
        const streamId = `${sessionId}.${String(message.id)}`;
        const events = [
          `id: ${streamId}/0\ndata: \n\n`,
          `id: ${streamId}/1\ndata: ${JSON.stringify(response)}\n\n`,
        ];
        session.streams.set(streamId, { key, events });
        eventKeys.set(`${streamId}/0`, key);
        eventKeys.set(`${streamId}/1`, key);
        return sse(res, events);
      }
      default:
        return json(res, 200, rpcError(message.id, -32601, 'Method not found'));
    }
  }

  function get(req: IncomingMessage, res: ServerResponse, sessionId: string | undefined): void {
    const session = sessionId ? sessions.get(sessionId) : undefined;
    if (!sessionId) return void json(res, 400, rpcError(null, -32000, 'Bad Request: no session'));
    if (!session) return void json(res, 404, rpcError(null, -32001, 'Session not found'));
    const lastEventId = header(req, 'last-event-id');
    if (lastEventId === undefined) {
      // The GET stream: held open, quiet, until the session or the server ends.
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': listening\n\n');
      session.listeners.add(res);
      open.add(res);
      res.on('close', () => {
        session.listeners.delete(res);
        open.delete(res);
      });
      return;
    }
    const slash = lastEventId.lastIndexOf('/');
    const stream = session.streams.get(lastEventId.slice(0, slash));
    const seq = Number(lastEventId.slice(slash + 1));
    if (!stream || !Number.isInteger(seq)) {
      return void json(res, 400, rpcError(null, -32000, 'Unknown Last-Event-ID'));
    }
    sse(res, stream.events.slice(seq + 1));
  }

  function modern(req: IncomingMessage, res: ServerResponse, chunks: Buffer[]): void {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const message = parse(chunks);
    if (!message) return void json(res, 400, rpcError(null, -32700, 'Parse error'));
    switch (message.method) {
      case 'subscriptions/listen': {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const ack = { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged' };
        res.write(`data: ${JSON.stringify(ack)}\n\n`);
        open.add(res);
        res.on('close', () => open.delete(res));
        return;
      }
      case 'tools/list':
        return void json(res, 200, {
          jsonrpc: '2.0',
          id: message.id,
          result: { resultType: 'complete', tools: TOOLS, ttlMs: 60_000 },
        });
      case 'tools/call': {
        const { key, stream } = run(message.params);
        const response = {
          jsonrpc: '2.0',
          id: message.id,
          result: { resultType: 'complete', ...resultOf(key) },
        };
        if (!stream) return void json(res, 200, response);
        return void sse(res, [`data: \n\n`, `data: ${JSON.stringify(response)}\n\n`]);
      }
      default:
        return void json(res, 200, rpcError(message.id ?? null, -32601, 'Method not found'));
    }
  }

  function endSession(id: string): void {
    const session = sessions.get(id);
    sessions.delete(id);
    for (const listener of session?.listeners ?? []) listener.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const close = async () => {
    for (const res of open) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    modernUrl: `http://127.0.0.1:${port}/modern`,
    port,
    executions,
    expire: endSession,
    keyOfEvent: (eventId) => eventKeys.get(eventId),
    close,
    [Symbol.asyncDispose]: close,
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parse(chunks: Buffer[]): Rpc | undefined {
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Rpc)
      : undefined;
  } catch {
    return undefined;
  }
}

function rpcError(id: string | number | null | undefined, code: number, message: string) {
  return { jsonrpc: '2.0', id: id ?? null, error: { code, message } };
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** An event stream whose events go out one write each, a turn apart, then ends. */
function sse(res: ServerResponse, events: string[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let at = 0;
  const next = () => {
    if (res.destroyed) return;
    if (at >= events.length) return void res.end();
    res.write(events[at++]);
    setImmediate(next);
  };
  next();
}
