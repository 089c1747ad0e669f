/**
 * A fault-injecting HTTP proxy over loopback, in front of the counting server. Each request it
 * forwards is given, with a seeded chance, one fault of the kinds a real network, gateway or
 * server produces; which fault is stable per call and attempt (see seeded.ts). Every fault is
 * logged with the call it hit, so the soak can tell a failure a fault explains from one it does
 * not.
 */
import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CountingServer } from './counting-server.ts';
import { chance, pick } from './seeded.ts';

/** The faults, as the issue lists them, and three more. */
export const FAULT_KINDS = [
  'reset-before', // the connection drops before the server saw the request
  'reset-after', // the server ran it and answered; the connection drops before the answer
  '429', // Retry-After: 1, not forwarded
  '503', // Retry-After: 0, not forwarded
  'cut', // forwarded; the body or stream is cut after its first event (or half its bytes)
  'expire', // the session is forgotten before the request reaches the server
  'delay', // forwarded; the answer is held past the call's deadline
  'malformed', // forwarded; the answer replaced by broken JSON
  'huge', // forwarded; the answer replaced by a 64 MiB body
  'html', // a text/html 200 from something in the way, not forwarded
  '502', // forwarded; the gateway answers 502 after the server ran it
  'end-early', // forwarded; an event stream ends cleanly after its first event (polling)
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** What a request is, for the proxy: which faults make sense for it, and which call it serves. */
export type RequestClass =
  | 'call'
  | 'resume'
  | 'list'
  | 'initialize'
  | 'initialized'
  | 'listen'
  | 'delete'
  | 'other';

const APPLICABLE: Record<RequestClass, readonly FaultKind[]> = {
  call: FAULT_KINDS,
  resume: FAULT_KINDS,
  list: FAULT_KINDS,
  initialize: [
    'reset-before',
    'reset-after',
    '429',
    '503',
    'cut',
    'malformed',
    'huge',
    'html',
    '502',
  ],
  initialized: ['reset-before', 'reset-after', '503', '502', 'expire', 'html'],
  // Streams that never end: only faults that need no end of the answer.
  listen: ['reset-before', '429', '503', 'expire', 'html', 'cut'],
  delete: ['reset-before', '503'],
  other: ['reset-before', '503'],
};

export interface FaultRecord {
  kind: FaultKind;
  on: RequestClass;
  /** The call's key, when the request belongs to one. */
  key: string | undefined;
}

export interface FaultProxyOptions {
  upstream: CountingServer;
  seed: number;
  /** The chance that a request is given a fault. */
  rate: number;
  /** How long `delay` holds an answer: longer than the client's deadline. */
  delayMs: number;
  kinds?: readonly FaultKind[];
}

export interface FaultProxy extends AsyncDisposable {
  url: string;
  modernUrl: string;
  faults: FaultRecord[];
  /** Requests seen, by class. */
  requests: Map<RequestClass, number>;
  close(): Promise<void>;
}

const HUGE_BYTES = 64 * 1024 * 1024;

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const { upstream, seed, rate } = options;
  const kinds = new Set(options.kinds ?? FAULT_KINDS);
  const faults: FaultRecord[] = [];
  const requests = new Map<RequestClass, number>();
  const attempts = new Map<string, number>();
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const held = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    serve(req, res).catch(() => res.destroy());
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const { on, key } = classify(req, body);
    requests.set(on, (requests.get(on) ?? 0) + 1);
    const counter = `${on}:${key ?? ''}`;
    const attempt = attempts.get(counter) ?? 0;
    attempts.set(counter, attempt + 1);
    const session = header(req.headers, 'mcp-session-id');
    const modern = (req.url ?? '').startsWith('/modern');
    const possible = APPLICABLE[on].filter(
      (kind) => kinds.has(kind) && (kind !== 'expire' || (!modern && session !== undefined)),
    );
    const kind =
      possible.length > 0 && chance(seed, on, key ?? '', attempt) < rate
        ? pick(possible, chance(seed, 'kind', on, key ?? '', attempt))
        : undefined;
    // Faults decided on the answer log themselves there (end-early is a cut on a JSON answer).
    if (kind && kind !== 'cut' && kind !== 'end-early') faults.push({ kind, on, key });
    switch (kind) {
      case 'reset-before':
        return void req.socket.destroy();
      case '429':
        return void res.writeHead(429, { 'retry-after': '1' }).end('slow down');
      case '503':
        return void res.writeHead(503, { 'retry-after': '0' }).end('unavailable');
      case 'html':
        return void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><body><h1>Welcome to the captive portal</h1></body></html>');
      case 'expire':
        upstream.expire(session!);
    }
    const answer = await forward(req, body, res);
    switch (kind) {
      case undefined:
      case 'expire':
        res.writeHead(answer.status, answer.headers);
        answer.body.pipe(res);
        res.on('close', () => answer.body.destroy());
        return;
      case 'reset-after':
        await drain(answer.body);
        return void req.socket.destroy();
      case 'malformed':
        await drain(answer.body);
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"jsonrpc":"2.0","id":');
      case '502':
        await drain(answer.body);
        return void res.writeHead(502).end('bad gateway');
      case 'huge':
        await drain(answer.body);
        return huge(res, chance(seed, 'declared', key ?? '', attempt) < 0.5);
      case 'delay': {
        const text = await drain(answer.body);
        held.add(res);
        await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        held.delete(res);
        if (res.destroyed) return;
        return void res.writeHead(answer.status, answer.headers).end(text);
      }
      case 'cut':
      case 'end-early': {
        const isStream = String(answer.headers['content-type']).startsWith('text/event-stream');
        const effective = kind === 'end-early' && isStream ? 'end-early' : 'cut';
        faults.push({ kind: effective, on, key });
        return cutShort(res, answer, isStream, effective === 'end-early');
      }
    }
  }

  function classify(
    req: IncomingMessage,
    body: Buffer,
  ): { on: RequestClass; key?: string | undefined } {
    if (req.method === 'DELETE') return { on: 'delete' };
    if (req.method === 'GET') {
      const last = header(req.headers, 'last-event-id');
      if (last === undefined) return { on: 'listen' };
      return { on: 'resume', key: upstream.keyOfEvent(last) };
    }
    let message: { method?: unknown; id?: unknown; params?: { arguments?: { key?: unknown } } };
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch {
      return { on: 'other' };
    }
    switch (message.method) {
      case 'tools/call':
        return { on: 'call', key: String(message.params?.arguments?.key) };
      case 'tools/list':
        return { on: 'list' };
      case 'initialize':
        return { on: 'initialize' };
      case 'notifications/initialized':
        return { on: 'initialized' };
      case 'subscriptions/listen':
        return { on: 'listen' };
      default:
        return { on: 'other' };
    }
  }

  function forward(
    req: IncomingMessage,
    body: Buffer,
    res: ServerResponse,
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: IncomingMessage }> {
    return new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: `127.0.0.1:${upstream.port}` };
      const out = request(
        {
          host: '127.0.0.1',
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers,
          agent,
        },
        (response) =>
          resolve({
            status: response.statusCode ?? 502,
            headers: response.headers,
            body: response,
          }),
      );
      // The client went away before its answer was through: so does the request upstream.
      res.on('close', () => {
        if (!res.writableFinished) out.destroy();
      });
      out.on('error', reject);
      out.end(body);
    });
  }

  /** An answer whose body stops after its first event (or half its bytes): dropped, or ended. */
  async function cutShort(
    res: ServerResponse,
    answer: { status: number; headers: IncomingHttpHeaders; body: IncomingMessage },
    isStream: boolean,
    clean: boolean,
  ): Promise<void> {
    const { 'content-length': _length, ...headers } = answer.headers;
    res.writeHead(answer.status, headers);
    let seen = '';
    const finish = () => {
      answer.body.destroy();
      if (clean) res.end();
      // Node sends what was written on the next turn; the connection drops after it.
      else setImmediate(() => res.destroy());
    };
    if (!isStream) {
      const text = await drain(answer.body);
      res.write(text.slice(0, Math.floor(text.length / 2)));
      return finish();
    }
    answer.body.on('data', (chunk: Buffer) => {
      if (res.writableEnded || res.destroyed) return;
      seen += chunk.toString('utf8');
      const end = seen.indexOf('\n\n');
      if (end === -1) return;
      res.write(seen.slice(0, end + 2));
      finish();
    });
    answer.body.on('end', () => {
      if (!res.writableEnded && !res.destroyed) finish();
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const close = async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    agent.destroy();
  };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    modernUrl: `http://127.0.0.1:${port}/modern`,
    faults,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function drain(body: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
    body.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    body.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
    body.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** 64 MiB of JSON-looking bytes, written as fast as the client reads, until it gives up. */
function huge(res: ServerResponse, declared: boolean): void {
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(declared ? { 'content-length': String(HUGE_BYTES) } : {}),
  });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const pump = () => {
    while (sent < HUGE_BYTES && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  res.on('error', () => {});
  pump();
}
