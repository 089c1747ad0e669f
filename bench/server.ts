/**
 * The loopback MCP server every client is measured against. Bare node:http with precomputed
 * bodies (only the JSON-RPC id is spliced in), so its cost per request is small and the same
 * for every client: it must never be the bottleneck being measured.
 *
 * `/protected` is `/modern` behind a bearer token, beside the least authorization server that
 * gives it (metadata and a client credentials token endpoint); MCP-lite's gRPC binding listens on
 * a second port (`grpc-server.ts`).
 *
 * Run as its own process (`node bench/server.ts`); it prints `PORT <n> GRPC <m>` once listening,
 * binds 127.0.0.1 only, and exits on SIGTERM, when its parent closes stdin, or after 15 minutes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { startGrpcServer } from './grpc-server.ts';
import {
  BEARER_TOKEN,
  ECHO_TEXT,
  ISSUER_METADATA_PATH,
  LEGACY_PATH,
  LEGACY_VERSION,
  MODERN_PATH,
  MODERN_VERSION,
  OAUTH_CLIENT,
  PROTECTED_PATH,
  RESOURCE_METADATA_PATH,
  STATS_PATH,
  TCP_CONNECTION,
  TOKEN_PATH,
  TOOLS,
} from './protocol.ts';

interface Message {
  id?: string | number;
  method?: string;
  params?: { name?: string; arguments?: Record<string, unknown>; protocolVersion?: string };
}

const SERVER_INFO = { name: 'toolwire-bench', version: '0.0.0' };
const LEGACY_REVISIONS = new Set(['2025-11-25', '2025-06-18', '2025-03-26']);
const TOOL_LIST = {
  tools: Object.values(TOOLS).map((name) => ({
    name,
    description: name,
    inputSchema: { type: 'object' },
  })),
};

/** `{"jsonrpc":"2.0","id":<id>,"result":<result>}` from a result serialised once. */
function responder(result: unknown): (id: string) => string {
  const tail = `,"result":${JSON.stringify(result)}}`;
  return (id) => `{"jsonrpc":"2.0","id":${id}${tail}`;
}

const toolResult = responder({ content: [{ type: 'text', text: ECHO_TEXT }], isError: false });
const listResult = responder(TOOL_LIST);
const emptyResult = responder({});
const discoverResult = responder({
  supportedVersions: [MODERN_VERSION],
  capabilities: { tools: {} },
  serverInfo: SERVER_INFO,
});
const initResults = new Map(
  [...LEGACY_REVISIONS].map((v) => [
    v,
    responder({ protocolVersion: v, capabilities: { tools: {} }, serverInfo: SERVER_INFO }),
  ]),
);

/** SSE bodies of notifications before the result, cached per (count, data size). */
const streams = new Map<string, string>();
function notifications(count: number, size: number): string {
  const key = `${count}:${size}`;
  let body = streams.get(key);
  if (body === undefined) {
    const event = `event: message\ndata: ${JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'x'.repeat(size) },
    })}\n\n`;
    body = event.repeat(count);
    streams.set(key, body);
  }
  return body;
}

/** Bounded so a bad argument cannot make the server build a gigabyte string. */
function bounded(value: unknown, max: number): number {
  return typeof value === 'number' && value > 0 ? Math.min(Math.floor(value), max) : 0;
}

const BEARER = `Bearer ${BEARER_TOKEN}`;
const BASIC = `Basic ${Buffer.from(`${OAUTH_CLIENT.clientId}:${OAUTH_CLIENT.clientSecret}`).toString('base64')}`;
const TOKEN_RESPONSE = JSON.stringify({
  access_token: BEARER_TOKEN,
  token_type: 'Bearer',
  expires_in: 3600,
});
// Set once listening: the documents name the server's own origin.
let challenge = '';
let resourceMetadata = '';
let issuerMetadata = '';

/**
 * The least an authorization server for the client credentials grant is: the protected path's
 * resource metadata, the issuer's metadata (the issuer is this server's origin) and a token
 * endpoint that takes the bench client's secret (client_secret_basic) and gives the constant token.
 */
function authorizationServer(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  body: string,
): undefined {
  count(`${req.method} ${path}`);
  if (path === RESOURCE_METADATA_PATH) return json(res, 200, resourceMetadata);
  if (path === ISSUER_METADATA_PATH) return json(res, 200, issuerMetadata);
  const noStore = { 'cache-control': 'no-store' };
  if (req.method !== 'POST' || req.headers.authorization !== BASIC) {
    return json(res, 401, '{"error":"invalid_client"}', noStore);
  }
  if (new URLSearchParams(body).get('grant_type') !== 'client_credentials') {
    return json(res, 400, '{"error":"unsupported_grant_type"}', noStore);
  }
  return json(res, 200, TOKEN_RESPONSE, noStore);
}

function describe(origin: string): void {
  const metadataUrl = `${origin}${RESOURCE_METADATA_PATH}`;
  challenge = `Bearer resource_metadata="${metadataUrl}"`;
  resourceMetadata = JSON.stringify({
    resource: `${origin}${PROTECTED_PATH}`,
    authorization_servers: [origin],
    bearer_methods_supported: ['header'],
  });
  issuerMetadata = JSON.stringify({
    issuer: origin,
    token_endpoint: `${origin}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic'],
    response_types_supported: [],
  });
}

let sessions = 0;
let counts: Record<string, number> = {};

function count(key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

function json(res: ServerResponse, status: number, body: string, headers = {}): undefined {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

function sse(res: ServerResponse, before: string, result: string): undefined {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.end(`${before}event: message\ndata: ${result}\n\n`);
}

function callTool(res: ServerResponse, id: string, message: Message): undefined {
  const args = message.params?.arguments ?? {};
  switch (message.params?.name) {
    case TOOLS.json:
      return json(res, 200, toolResult(id));
    case TOOLS.sse:
      return sse(res, '', toolResult(id));
    case TOOLS.notify:
      return sse(res, notifications(bounded(args['n'], 10_000), 16), toolResult(id));
    case TOOLS.stream:
      return sse(
        res,
        notifications(bounded(args['k'], 100_000), bounded(args['s'], 1 << 20)),
        toolResult(id),
      );
    default:
      return json(
        res,
        200,
        `{"jsonrpc":"2.0","id":${id},"error":{"code":-32602,"message":"unknown tool"}}`,
      );
  }
}

function handle(res: ServerResponse, path: string, message: Message): undefined {
  const method = message.method ?? '';
  const modern = path !== LEGACY_PATH;
  count(`POST ${modern ? `${path.slice(1)} ` : ''}${method}`);
  // A notification (no id) is accepted and needs no answer.
  if (message.id === undefined) {
    res.writeHead(202).end();
    return;
  }
  const id = JSON.stringify(message.id);
  switch (method) {
    case 'initialize': {
      if (modern) break;
      const asked = message.params?.protocolVersion ?? LEGACY_VERSION;
      const answer = initResults.get(asked) ?? initResults.get(LEGACY_VERSION);
      sessions += 1;
      return json(res, 200, answer?.(id) ?? '', { 'mcp-session-id': `bench-${sessions}` });
    }
    case 'server/discover':
      if (modern) return json(res, 200, discoverResult(id));
      // What a stateful-only server says to a request before initialize: the client steps down.
      return json(
        res,
        400,
        `{"jsonrpc":"2.0","id":${id},"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}`,
      );
    case 'tools/list':
      return json(res, 200, listResult(id));
    case 'tools/call':
      return callTool(res, id, message);
    case 'ping':
      return json(res, 200, emptyResult(id));
  }
  json(res, 200, `{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"not found"}}`);
}

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  const path = req.url ?? '';
  if (path === STATS_PATH) {
    // Read-and-reset, so a driver brackets exactly what it wants counted.
    json(res, 200, JSON.stringify(counts));
    counts = {};
    return;
  }
  if (path === RESOURCE_METADATA_PATH || path === ISSUER_METADATA_PATH || path === TOKEN_PATH) {
    return void authorizationServer(req, res, path, body);
  }
  // The one check a protected resource adds to every request; the token is the bench's constant.
  if (path === PROTECTED_PATH && req.headers.authorization !== BEARER) {
    count('401');
    return void json(res, 401, '{"error":"invalid_token"}', { 'www-authenticate': challenge });
  }
  if (path !== LEGACY_PATH && path !== MODERN_PATH && path !== PROTECTED_PATH) {
    return void res.writeHead(404).end();
  }
  if (req.method !== 'POST') {
    count(req.method ?? '?');
    // No GET stream is offered; a DELETE ends a session (there is nothing to end).
    return void res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
  }
  let message: Message;
  try {
    message = JSON.parse(body) as Message;
  } catch {
    return void res.writeHead(400).end();
  }
  handle(res, path, message);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => route(req, res, Buffer.concat(chunks).toString('utf8')));
});
// Counted apart from requests: a client that loses keep-alive opens one per call.
server.on('connection', () => count(TCP_CONNECTION));
// Pooled client connections must not be closed under a running measurement.
server.keepAliveTimeout = 120_000;

// MCP-lite's gRPC binding on a second port, in this process: the HTTP server idles meanwhile.
const grpc = await startGrpcServer(count);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (!address || typeof address !== 'object') return;
  describe(`http://127.0.0.1:${address.port}`);
  process.stdout.write(`PORT ${address.port} GRPC ${grpc.port}\n`);
});

function stop(): void {
  server.closeAllConnections();
  server.close();
  grpc.close();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
setTimeout(stop, 15 * 60_000).unref();
