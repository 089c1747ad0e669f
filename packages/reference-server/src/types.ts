import type { HostileSkill } from './skills.ts';

/** Options for {@link startReferenceServer}. Every field is optional. */
export interface ReferenceServerOptions {
  /** TCP port to listen on; 0 (the default) picks a free port. */
  port?: number;
  /** Interface to bind; defaults to `127.0.0.1` so the server is reachable from loopback only. */
  host?: string;
  /**
   * Protocol versions the server accepts in `initialize` and in the `MCP-Protocol-Version`
   * header. Defaults to `['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']`.
   */
  versions?: string[];
  /** Items per page for tools, resources, resource templates and prompts lists; default 5. */
  pageSize?: number;
  /** Extra `Origin` values to accept; loopback origins on the bound port are always accepted. */
  allowedOrigins?: string[];
  /**
   * Also offer the tools, resources and prompts the MCP conformance suite's server scenarios name
   * (`test_simple_text`, `test://static-text`, `test_simple_prompt`, ...). Off by default, so the
   * fixture lists stay as documented.
   */
  conformanceFixtures?: boolean;
  /**
   * Makes `/mcp` and `/mcp-json` dual-era: requests carrying the 2026-07-28 `_meta` are served
   * statelessly in that revision, `initialize` still opens a legacy session. Off by default, so
   * that a client negotiating on its own finds the legacy server these endpoints always were (the
   * conformance runner turns it on: its suites judge both eras at `url`).
   * `/mcp-modern` speaks 2026-07-28 either way.
   */
  dualEra?: boolean;
  /** Interval of the keep-alive comments on quiet `subscriptions/listen` streams; default 15000. */
  keepAliveMs?: number;
  /**
   * Protected mode (MCP authorization): every endpoint asks for a bearer token of the named
   * authorization server, answers 401 or 403 with the `WWW-Authenticate` the specification
   * describes, and serves its protected-resource metadata. Off by default.
   */
  protect?: ProtectionOptions;
}

/** The server as an OAuth 2.1 resource server (see {@link ReferenceServerOptions.protect}). */
export interface ProtectionOptions {
  /** The authorization servers the protected-resource metadata names; tokens are the first's. */
  authorizationServers: string[];
  /** `scopes_supported` of the protected-resource metadata. */
  scopesSupported?: string[];
  /** Scopes every request needs; a 401 names them in its challenge. */
  scopes?: string[];
  /** Scopes a tool needs besides: a `tools/call` without them is answered 403 insufficient_scope. */
  toolScopes?: Record<string, string[]>;
  /**
   * Checks a token; resolves with what it grants, or undefined to refuse it. By default an RFC
   * 9068 JWT access token signed by a key of the first authorization server (from its
   * `jwks_uri`), whose audience is the endpoint (or a parent path of it), and not expired.
   */
  verify?: (
    token: string,
    context: { resource: string },
  ) => TokenInfo | undefined | Promise<TokenInfo | undefined>;
}

/** What a verified token grants. */
export interface TokenInfo {
  scopes: string[];
  subject?: string;
  clientId?: string;
}

/** One HTTP request as the server received it, for assertions about what a client sent. */
export interface ReceivedRequest {
  /** HTTP method, e.g. `POST`. */
  httpMethod: string;
  /** URL path without the query string, e.g. `/mcp`. */
  path: string;
  /** Request headers with lower-cased names; repeated headers are joined with `, `. */
  headers: Record<string, string>;
  /** The parsed JSON body, or undefined when there was none or it was not JSON. */
  body: unknown;
  /** The `Mcp-Session-Id` header the request carried, if any. */
  sessionId?: string;
}

/** A `notifications/cancelled` the server received. */
export interface CancelledRequest {
  /** The id of the request the client cancelled. */
  requestId: string | number;
  /** The reason the client gave, if any. */
  reason?: string;
}

/** A task the server created (either era), as a test sees it. */
export interface TaskRecord {
  taskId: string;
  tool: string;
  /** `modern`: the 2026-07-28 tasks extension; `legacy`: 2025-11-25 tasks. */
  era: 'modern' | 'legacy';
  /** Every status the task went through, in order (`working` first). */
  statuses: string[];
  /** When each `tasks/get` about it arrived, in `Date.now()` milliseconds. */
  polls: number[];
  /** Whether a `tasks/cancel` for it arrived. */
  cancelled: boolean;
}

/** An MCP-lite `redeem` call, as a test sees it. */
export interface LiteRedeem {
  /** The promise token it carried. */
  token: string;
  /** When it arrived, in `Date.now()` milliseconds. */
  at: number;
  /** The `estimated_completion` the server had announced for the token, in milliseconds. */
  due: number | undefined;
}

/** The canned answer {@link Faults.failNext} gives instead of processing a POST. */
export interface FailReply {
  /** HTTP status code to answer with. */
  status: number;
  /** Value of the `Retry-After` header, when one should be sent. */
  retryAfter?: string;
  /** Response body; empty when omitted. Sent as `application/json` when it parses as JSON. */
  body?: string;
  /** Only POSTs whose JSON-RPC method equals this are failed (any message of a batch counts). */
  method?: string;
}

/** Switchable misbehaviour, for testing how a client copes with a flaky server. */
export interface Faults {
  /** Forgets every session: later requests carrying an old `Mcp-Session-Id` get 404. */
  dropSessions(): void;
  /** Answers the next `count` POSTs (matching `reply.method` when given) with `reply`, unprocessed. */
  failNext(count: number, reply: FailReply): void;
  /**
   * Cuts the next POST answered with SSE (socket destroyed) after `events` SSE events, and at the
   * latest just before the response. Events keep their ids, so the client can resume with GET +
   * `Last-Event-ID` and receive the rest of the stream, response included, there.
   */
  cutStreamAfter(events: number): void;
  /**
   * The next POST answered with SSE sends only the priming event (an id, empty data) with
   * `retry: retryMs`, then ends the connection gracefully; the response is delivered on a GET with
   * `Last-Event-ID` (the 2025-11-25 polling behaviour).
   */
  closeAfterPriming(retryMs: number): void;
  /** Delays every later HTTP response by `ms` milliseconds; 0 stops delaying. */
  delay(ms: number): void;
  /**
   * Switches on the hostile skills named (none: honest skills only), until the next call or
   * `reset()`: a wrong digest, an unlisted file, `../` in a path, skills past the limits, a
   * frontmatter that disagrees, the same name twice (see `HostileSkill`).
   */
  hostileSkills(...variants: HostileSkill[]): void;
  /** Clears every pending fault, the delay and the hostile skills. */
  reset(): void;
}

/** A running reference server. */
export interface ReferenceServer {
  /** The stateful endpoint that answers POSTs with SSE, `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /**
   * Every endpoint: dual-era SSE (`/mcp`), dual-era JSON-only (`/mcp-json`), stateless legacy
   * (`/mcp-stateless`), 2026-07-28 only (`/mcp-modern`) and the 2024-11-05 HTTP+SSE stream
   * (`/sse`, which names its POST endpoint in its first event); beside MCP, the MCP-lite base
   * (`/mcp-lite/v1`, with `/listtools`, `/tools`, `/calltools` and `/rpc` under it) and the
   * `weather` webtool (`/webtools/weather`, versions 1.0.0 and 2.0.0).
   */
  urls: {
    stateful: string;
    statefulJson: string;
    stateless: string;
    modern: string;
    sse: string;
    mcpLite: string;
    webtools: string;
  };
  /** Fault injection switches. */
  faults: Faults;
  /** Every HTTP request received, in arrival order. */
  log: ReceivedRequest[];
  /**
   * Every cancellation, in arrival order: each `notifications/cancelled`, and each 2026-07-28
   * request whose client closed its response stream before the answer.
   */
  cancelled: CancelledRequest[];
  /** Every task created, in order, with its statuses, polls and cancellation. */
  tasks: TaskRecord[];
  /** Every MCP-lite `redeem` call, in arrival order. */
  liteRedeems: LiteRedeem[];
  /** Closes all connections (open SSE streams and idle keep-alive sockets too) and timers; idempotent. */
  close(): Promise<void>;
  /** Same as {@link ReferenceServer.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}
