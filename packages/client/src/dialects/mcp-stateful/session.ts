/**
 * The session a stateful server keeps for us: its id, the negotiated revision, and the headers
 * both imply on every request after `initialize`. A renewal makes a new Session and swaps it in
 * whole once the server has answered, so no request ever goes out between two sessions.
 */
import type { Dispatcher } from 'undici';
import type { Responder } from '../../handlers/responder.ts';
import type { JsonObject } from '../../jsonrpc.ts';
import type { RetryPolicy } from '../../transport/retry.ts';

/** What the stateful dialect needs from the client's resolved options. */
export interface StatefulConfig {
  url: string;
  dispatcher: Dispatcher;
  headers: Record<string, string>;
  clientInfo: JsonObject;
  capabilities: JsonObject;
  protocolVersion: string;
  supportedVersions: readonly string[];
  maxResponseBytes: number;
  maxEventSize: number;
  retry: RetryPolicy;
  listen: boolean;
  reconnectAttempts: number;
  timeoutMs: number;
  maxTimeoutMs: number;
  /** Answers the server's questions with the application's handlers. */
  responder: Responder;
}

/** Revisions before 2025-06-18 have no version header; servers assume 2025-03-26 without it. */
const WITHOUT_VERSION_HEADER = new Set(['2025-03-26', '2024-11-05']);

export class Session {
  id: string | undefined;
  /** Empty until `initialize` has been answered: no version header goes on `initialize`. */
  version = '';
  /** The server answered 404 to a request that carried this session's id: it is gone. */
  lost = false;

  readonly #config: StatefulConfig;

  constructor(config: StatefulConfig) {
    this.#config = config;
  }

  headers(accept: string, extra?: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...this.#config.headers, ...extra, accept };
    if (this.id !== undefined) headers['mcp-session-id'] = this.id;
    if (this.version && !WITHOUT_VERSION_HEADER.has(this.version)) {
      headers['mcp-protocol-version'] = this.version;
    }
    return headers;
  }

  start(id: string | undefined, version: string): void {
    this.id = id;
    this.version = version;
  }
}

/**
 * Internal: the call's session is gone (a 404 to a request that carried its id, or another call
 * renewed it while this one's stream was open). Never leaves the dialect. `acted` is false when
 * the 404 answered the call's own POST: the server ran nothing (see transport/retry.ts).
 */
export class SessionNotFound extends Error {
  override readonly name = 'SessionNotFound';
  readonly acted: boolean;
  constructor(acted: boolean) {
    super('session not found');
    this.acted = acted;
  }
}

export const ACCEPT_POST = 'application/json, text/event-stream';
export const ACCEPT_STREAM = 'text/event-stream';
