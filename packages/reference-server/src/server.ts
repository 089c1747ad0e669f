import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerCore } from './context.ts';
import { handleDelete, handleGet } from './endpoint.ts';
import { FaultController } from './faults.ts';
import { header, headerRecord, sendEmpty, sendJson, sendRpcError } from './http-util.ts';
import { ErrorCode, errorMessage } from './jsonrpc.ts';
import { OriginPolicy } from './origin-policy.ts';
import { handlePost } from './post.ts';
import { type EndpointKind, InFlightRequests, SessionStore } from './session.ts';
import { FixtureState } from './state.ts';
import type {
  CancelledRequest,
  ReceivedRequest,
  ReferenceServer,
  ReferenceServerOptions,
} from './types.ts';

const DEFAULT_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

const ENDPOINTS = new Map<string, EndpointKind>([
  ['/mcp', 'sse'],
  ['/mcp-json', 'json'],
  ['/mcp-stateless', 'stateless'],
]);

function validate(options: ReferenceServerOptions): void {
  const { port = 0, pageSize = 5, versions = DEFAULT_VERSIONS } = options;
  if (!Number.isSafeInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`port must be an integer from 0 to 65535, got ${port}`);
  }
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
  }
  if (versions.length === 0) throw new RangeError('versions must name at least one version');
}

/** The host part of a URL for a bound address: wildcards are reached through loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
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
async function route(
  core: ServerCore,
  policy: OriginPolicy,
  log: ReceivedRequest[],
  req: IncomingMessage,
  res: ServerResponse,
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
  const kind = ENDPOINTS.get(path);
  if (kind === undefined) {
    sendEmpty(res, 404);
    return;
  }
  const allowed = kind === 'stateless' ? 'POST' : 'GET, POST, DELETE';
  switch (req.method) {
    case 'POST':
      return handlePost(core, kind, req, res, entry);
    case 'GET':
      if (kind !== 'stateless') return handleGet(core, kind, req, res);
      break;
    case 'DELETE':
      if (kind !== 'stateless') return handleDelete(core, kind, req, res);
      break;
  }
  const refusal = errorMessage(null, ErrorCode.ServerError, `Method Not Allowed: use ${allowed}`);
  sendJson(res, 405, refusal, { allow: allowed });
}

/**
 * Starts a reference MCP server speaking Streamable HTTP on three endpoints: `/mcp` (stateful,
 * SSE answers), `/mcp-json` (stateful, JSON answers) and `/mcp-stateless`.
 */
export async function startReferenceServer(
  options: ReferenceServerOptions = {},
): Promise<ReferenceServer> {
  validate(options);
  const host = options.host ?? '127.0.0.1';
  const closing = new AbortController();
  const sessions = new SessionStore();
  const log: ReceivedRequest[] = [];
  const cancelled: CancelledRequest[] = [];
  const faults = new FaultController(() => {
    // Like a restart that lost its session table: GET streams end so clients notice promptly.
    for (const session of sessions.all()) session.disconnectStandalone();
    sessions.clear();
  });
  const core: ServerCore = {
    versions: [...(options.versions ?? DEFAULT_VERSIONS)],
    sessions,
    fixtures: new FixtureState(options.pageSize ?? 5, options.conformanceFixtures ?? false),
    faults,
    cancelled,
    statelessInFlight: new InFlightRequests(),
    closing: closing.signal,
  };

  let policy: OriginPolicy | undefined;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    if (policy === undefined || closing.signal.aborted) {
      res.destroy();
      return;
    }
    route(core, policy, log, req, res).catch(() => {
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
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      closing.abort();
      for (const session of sessions.all()) session.terminate();
      sessions.clear();
      core.statelessInFlight.abortAll();
      // The callback runs once the listener and every connection are gone.
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
    return closed;
  };

  const base = `http://${urlHost(host)}:${address.port}`;
  const urls = {
    stateful: `${base}/mcp`,
    statefulJson: `${base}/mcp-json`,
    stateless: `${base}/mcp-stateless`,
  };
  return {
    url: urls.stateful,
    urls,
    faults,
    log,
    cancelled,
    close,
    [Symbol.asyncDispose]: close,
  };
}
