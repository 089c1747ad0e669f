/**
 * What the bench server and every driver agree on: paths, tool names, revisions. One place, so
 * a driver and the server cannot drift apart.
 */

/** Stateful Streamable HTTP (2025-11-25): every client speaks it, so it is the common ground. */
export const LEGACY_PATH = '/mcp';
/** Stateless 2026-07-28 (`server/discover`): only toolwire and the raw floor are driven here. */
export const MODERN_PATH = '/modern';
/**
 * Stateless 2026-07-28 as on `/modern`, behind a bearer token: a request without
 * `Authorization: Bearer <BEARER_TOKEN>` gets a 401 naming the protected-resource metadata.
 */
export const PROTECTED_PATH = '/protected';
/** Not a path: the stdio entries start `stdio-server.ts` as a child process of their own. */
export const STDIO_PATH = 'stdio';
/** Not a path: the gRPC entries speak MCP-lite's gRPC binding on the server's second port. */
export const GRPC_PATH = 'grpc';
/** Control endpoint for the request counters; never counted itself. */
export const STATS_PATH = '/_stats';
/** The counter key for TCP connections accepted (the others are requests). */
export const TCP_CONNECTION = 'TCP connection';

/** The protected path's token, and the client that the token endpoint gives it to. */
export const BEARER_TOKEN = 'bench-token';
export const OAUTH_CLIENT = { clientId: 'bench-client', clientSecret: 'bench-secret' } as const;
/** The authorization server's endpoints; its issuer is the server's origin. */
export const TOKEN_PATH = '/token';
export const RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${PROTECTED_PATH}`;
export const ISSUER_METADATA_PATH = '/.well-known/oauth-authorization-server';

export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';

export const TOOLS = {
  /** Answered with a JSON body. */
  json: 'echo',
  /** Answered with an SSE stream holding one event: the result. */
  sse: 'echo_sse',
  /** SSE: `n` progress-less log notifications, then the result. */
  notify: 'notify',
  /** SSE: `k` log notifications carrying `s` bytes of data each, then the result. */
  stream: 'stream',
} as const;

/** Event sizes measured for SSE parse throughput: small events and large ones. */
export const STREAM_SIZES = [
  { label: '200 B', s: 200, k: 5000 },
  { label: '16 KiB', s: 16_384, k: 64 },
] as const;

/** Log notifications the `notify` tool sends before its result, in the notification scenario. */
export const NOTIFY_COUNT = 10;

export const ECHO_TEXT = 'ok';
