/**
 * The narrow waist between the dialects and the call loop. Every dialect answers a call in one
 * of four ways; nothing above `dialects/` needs to know which dialect it was.
 */
import type { McpError } from './errors.ts';
import type { JsonObject } from './jsonrpc.ts';

/** One question the server put to the client (elicitation, sampling, roots), keyed by the server. */
export interface InputRequest {
  method: string;
  params?: JsonObject | undefined;
}

/** A handle for work the server has not finished (a task, a promise token). */
export interface PendingHandle {
  kind: string;
  id: string;
}

export type Outcome =
  /** The final result of the call. */
  | { kind: 'complete'; result: JsonObject }
  /** The server needs answers before it can go on; `state` is echoed back verbatim. */
  | { kind: 'input'; requests: Record<string, InputRequest>; state?: string | undefined }
  /** The server accepted the work and will finish it later. */
  | { kind: 'pending'; handle: PendingHandle; retryAfterMs?: number | undefined }
  /** The call failed on the server's side with a protocol error. */
  | { kind: 'failure'; error: McpError };
