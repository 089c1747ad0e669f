/**
 * The session a stateful server keeps for us: its id, the negotiated revision, and the headers
 * both imply on every request after `initialize`. A renewal makes a new Session and swaps it in
 * whole once the server has answered, so no request ever goes out between two sessions.
 */
import type { RetryPolicy } from '../../../core/types.ts';
import type { HttpTarget } from '../http-request.ts';

/** What the session-keeping Streamable HTTP channel needs from the client's resolved options. */
export interface HttpSessionConfig extends HttpTarget {
  maxResponseBytes: number;
  maxEventSize: number;
  retry: RetryPolicy;
  reconnectAttempts: number;
  /** The bound of the channel's own requests: a renewal, a cancellation. */
  timeoutMs: number;
  maxTimeoutMs: number;
}

/** Revisions before 2025-06-18 have no version header; servers assume 2025-03-26 without it. */
const WITHOUT_VERSION_HEADER = new Set(['2025-03-26', '2024-11-05']);

export class Session {
  id: string | undefined;
  /** Empty until `initialize` has been answered: no version header goes on `initialize`. */
  version = '';
  /** The server answered 404 to a request that carried this session's id: it is gone. */
  lost = false;

  /** What `MCP-Protocol-Version` says, if the revision has the header. */
  get headerVersion(): string | undefined {
    return this.version && !WITHOUT_VERSION_HEADER.has(this.version) ? this.version : undefined;
  }
}

/**
 * Internal: the call's session is gone (a 404 to a request that carried its id, or another call
 * renewed it while this one's stream was open). Never leaves the channel. `acted` is false when
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
