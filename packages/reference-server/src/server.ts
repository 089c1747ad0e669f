import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerCore } from './context.ts';
import { createCore, DEFAULT_VERSIONS } from './core.ts';
import { handleDelete, handleGet } from './endpoint.ts';
import { HttpSseTransport, MESSAGES_PATH } from './http-sse.ts';
import { header, headerRecord, sendEmpty, sendJson, sendRpcError, urlHost } from './http-util.ts';
import { ErrorCode, errorMessage } from './jsonrpc.ts';
import { MCP_LITE_BASE, McpLiteEndpoint } from './mcp-lite/endpoint.ts';
import { MODERN_VERSIONS } from './modern/envelope.ts';
import { OriginPolicy } from './origin-policy.ts';
import { handlePost } from './post.ts';
import { Protection } from './protection.ts';
import type { EndpointKind } from './session.ts';
import type { ReceivedRequest, ReferenceServer, ReferenceServerOptions } from './types.ts';
import { WEBTOOL_PATH, WebtoolsEndpoint } from './webtools/endpoint.ts';

/** How long close() lets listen streams flush their final response before cutting sockets. */
const GRACEFUL_CLOSE_MS = 500;

const ENDPOINTS = new Map<string, EndpointKind>([
  ['/mcp', 'sse'],
  ['/mcp-json', 'json'],
  ['/mcp-stateless', 'stateless'],
  ['/mcp-modern', 'modern'],
]);

/** The 2024-11-05 HTTP+SSE transport's stream endpoint (its POST endpoint is MESSAGES_PATH). */
const SSE_PATH = '/sse';

function validate(options: ReferenceServerOptions): void {
  const { port = 0, pageSize = 5, versions = DEFAULT_VERSIONS, keepAliveMs = 1 } = options;
  if (!Number.isSafeInteger(keepAliveMs) || keepAliveMs < 1) {
    throw new RangeError(`keepAliveMs must be a positive integer, got ${keepAliveMs}`);
  }
  if (!Number.isSafeInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`port must be an integer from 0 to 65535, got ${port}`);
  }
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
  }
  if (versions.length === 0) throw new RangeError('versions must name at least one version');
}

function logEntry(req: IncomingMessage, path: string): ReceivedRequest {
  const entry: ReceivedRequest = {
    httpMethod: req.method ?? '',
    path,
    headers: headerRecord(req),
    body: undefined,
  };
  const sessionId = header(req, 'mcp-session-id');
  if (sessionId !== undefined) entry.sessionId = sessionId;
  return entry;
}

/** Handles one HTTP request: log it, apply the delay fault, check Host/Origin, dispatch by path. */
function methodNotAllowed(res: ServerResponse, allowed: string): void {
  const refusal = errorMessage(null, ErrorCode.ServerError, `Method Not Allowed: use ${allowed}`);
  sendJson(res, 405, refusal, { allow: allowed });
}

/** GET and DELETE belong to the stateful revisions; a 2026-07-28 client never has a use for them. */
function isModernGetOrDelete(core: ServerCore, kind: EndpointKind, req: IncomingMessage): boolean {
  if (kind === 'modern') return true;
  if (!core.dualEra) return false;
  const version = header(req, 'mcp-protocol-version');
  return version !== undefined && MODERN_VERSIONS.includes(version);
}

async function route(
  core: ServerCore,
  policy: OriginPolicy,
  log: ReceivedRequest[],
  httpSse: HttpSseTransport,
  req: IncomingMessage,
  res: ServerResponse,
  others: OtherDialects,
): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const entry = logEntry(req, path);
  log.push(entry);
  const { delayMs } = core.faults;
  if (delayMs > 0) await sleep(delayMs, undefined, { signal: core.closing });
  if (!policy.allows(req)) {
    sendRpcError(res, 403, ErrorCode.ServerError, 'Forbidden: Host or Origin is not allowed');
    return;
  }
  const { protection } = core;
  if (protection) {
    if (req.method === 'GET' && protection.serveMetadata(req, res, path)) return;
    if (!(await protection.admit(req, res, path))) return;
  }
  // The HTTP+SSE transport. A POST to its stream URL fails as on servers that only have that
  // transport: a bare 405 that knows nothing of JSON-RPC.
  if (path === SSE_PATH) {
    if (req.method === 'GET') httpSse.open(core, res);
    else sendEmpty(res, 405, { allow: 'GET' });
    return;
  }
  if (path === MESSAGES_PATH) {
    if (req.method === 'POST') return httpSse.post(core, req, res, entry);
    methodNotAllowed(res, 'POST');
    return;
  }
  // The two dialects that are not MCP, each under a path of its own.
  if (others.lite.handles(path)) return others.lite.serve(core, req, res, entry, path);
  if (others.webtools.handles(path)) return others.webtools.serve(req, res, entry, path);
  const kind = ENDPOINTS.get(path);
  if (kind === undefined) {
    sendEmpty(res, 404);
    return;
  }
  const allowed = kind === 'stateless' || kind === 'modern' ? 'POST' : 'GET, POST, DELETE';
  switch (req.method) {
    case 'POST':
      return handlePost(core, kind, req, res, entry);
    case 'GET':
      if (kind !== 'stateless' && !isModernGetOrDelete(core, kind, req))
        return handleGet(core, kind, req, res);
      break;
    case 'DELETE':
      if (kind !== 'stateless' && !isModernGetOrDelete(core, kind, req)) {
        return handleDelete(core, kind, req, res);
      }
      break;
  }
  // A 2026-07-28 GET or DELETE on a dual-era endpoint is told what that revision allows.
  const modernVerb =
    (req.method === 'GET' || req.method === 'DELETE') && isModernGetOrDelete(core, kind, req);
  methodNotAllowed(res, modernVerb ? 'POST' : allowed);
}

/**
 * The endpoint a path belongs to, as a client configures its URL: tokens and metadata are the
 * endpoint's, whichever of its paths a request goes to.
 */
function resourcePath(path: string): string {
  if (path === MESSAGES_PATH) return SSE_PATH;
  if (path.startsWith(MCP_LITE_BASE)) return MCP_LITE_BASE;
  if (path.startsWith('/webtools/')) return WEBTOOL_PATH;
  return path;
}

interface OtherDialects {
  lite: McpLiteEndpoint;
  webtools: WebtoolsEndpoint;
}

/**
 * Starts a reference MCP server. `/mcp` (SSE answers) and `/mcp-json` (JSON answers) are
 * dual-era: stateful sessions for 2025-11-25 and earlier, stateless 2026-07-28 for requests that
 * carry its `_meta`. `/mcp-stateless` is the sessionless legacy endpoint, `/mcp-modern` speaks
 * only 2026-07-28, and `/sse` + `/messages` are the 2024-11-05 HTTP+SSE transport.
 */
export async function startReferenceServer(
  options: ReferenceServerOptions = {},
): Promise<ReferenceServer> {
  validate(options);
  const host = options.host ?? '127.0.0.1';
  const closing = new AbortController();
  const protection = options.protect ? new Protection(options.protect, resourcePath) : undefined;
  const core = createCore(options, closing.signal, protection);
  const { sessions, cancelled } = core;
  const log: ReceivedRequest[] = [];
  const httpSse = new HttpSseTransport();
  const others: OtherDialects = { lite: new McpLiteEndpoint(), webtools: new WebtoolsEndpoint() };
  let stopping = false;

  let policy: OriginPolicy | undefined;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    if (policy === undefined || stopping) {
      res.destroy();
      return;
    }
    route(core, policy, log, httpSse, req, res, others).catch(() => {
      // Closing aborts pending sleeps; anything else is a server bug worth a 500.
      if (closing.signal.aborted) res.destroy();
      else if (!res.headersSent) sendRpcError(res, 500, ErrorCode.InternalError, 'Internal error');
      else res.destroy();
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  policy = new OriginPolicy(address.port, host, options.allowedOrigins ?? []);

  let closed: Promise<void> | undefined;
  /** Listen streams end with their final response, given a moment to reach the client. */
  const endSubscriptions = async (): Promise<void> => {
    const grace = new AbortController();
    await Promise.race([
      core.listeners.closeAll(),
      sleep(GRACEFUL_CLOSE_MS, undefined, { signal: grace.signal }).catch(() => undefined),
    ]);
    grace.abort();
  };
  const close = (): Promise<void> => {
    stopping = true;
    closed ??= endSubscriptions().then(
      () =>
        new Promise<void>((resolve) => {
          closing.abort();
          httpSse.closeAll();
          others.lite.clear();
          others.webtools.clear();
          for (const session of sessions.all()) session.terminate();
          sessions.clear();
          core.statelessInFlight.abortAll();
          core.tasks.clear();
          // The callback runs once the listener and every connection are gone.
          server.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        }),
    );
    return closed;
  };

  const base = `http://${urlHost(host)}:${address.port}`;
  const urls = {
    stateful: `${base}/mcp`,
    statefulJson: `${base}/mcp-json`,
    stateless: `${base}/mcp-stateless`,
    modern: `${base}/mcp-modern`,
    sse: `${base}${SSE_PATH}`,
    mcpLite: `${base}${MCP_LITE_BASE}`,
    webtools: `${base}${WEBTOOL_PATH}`,
  };
  return {
    url: urls.stateful,
    urls,
    faults: core.faults,
    log,
    cancelled,
    tasks: core.tasks.records,
    liteRedeems: others.lite.redeems,
    close,
    [Symbol.asyncDispose]: close,
  };
}
