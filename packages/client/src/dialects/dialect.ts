/**
 * What every dialect implements. A dialect turns an operation into wire traffic and the answer
 * into an `Outcome`; it knows nothing of the call loop, the caches or the handlers.
 */
import type { Deadline } from '../core/deadline.ts';
import type { McpError } from '../core/errors.ts';
import type { JsonObject } from '../core/jsonrpc.ts';
import type { Operation, Outcome, PendingHandle, PollOutcome, Question } from '../core/outcome.ts';
import type { ContentBlock, Progress, Tool } from '../core/types.ts';

// The request a dialect is handed is part of the waist it shares with the call loop; progress is
// the application's type (core/types.ts), named here for the dialects that report it.
export type { Operation, PollOutcome } from '../core/outcome.ts';
export type { Progress } from '../core/types.ts';

export interface SendContext {
  deadline: Deadline;
  /** Set when the caller wants progress; the dialect then asks the server for it. */
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Set when the caller wants the result as it streams; the dialect then asks for a stream. */
  onPartial?: ((content: ContentBlock[]) => void) | undefined;
}

/** Where and for whom a question is asked. */
export interface AskContext {
  /** Fires when the answer is no longer wanted (the call ended, the server cancelled). */
  signal: AbortSignal;
  /** The tool whose call the question belongs to, when known. */
  tool?: string | undefined;
}

/** The answer to send, or the error that ends the call and the refusal the server gets instead. */
export type Answer =
  | { ok: true; result: JsonObject }
  | { ok: false; error: McpError; refusal: { code: number; message: string } };

/**
 * Where a dialect hands every question the server asks, whichever way it came (a request on a
 * legacy stream, a 2026-07-28 `input_required`): the application's handlers, above the dialects,
 * answer it. Never rejects: a failure is an `Answer` too.
 */
export type Ask = (question: Question, context: AskContext) => Promise<Answer>;

/** What the server said about itself when the connection was set up. */
export interface ServerDescription {
  protocolVersion: string;
  serverInfo: { name: string; version: string; title?: string | undefined } & JsonObject;
  capabilities: JsonObject;
  instructions: string | undefined;
}

export interface Dialect {
  readonly name: string;
  readonly server: ServerDescription;
  /**
   * Sends an operation and resolves with `read` of its Outcome (`asIs` for the Outcome itself).
   * A dialect whose channel reads an answer where it settles it (stdio) reads the Outcome there
   * too, so a call crosses the layers on one promise.
   */
  send<T>(
    operation: Operation,
    context: SendContext,
    read: (outcome: Outcome) => T | Promise<T>,
  ): Promise<T>;
  /**
   * What to send for an operation in this dialect's era: the operation itself, another one (a
   * modern server has no `ping`), or `undefined` when the dialect handles it without a request
   * (a modern log level travels in each request's `_meta`).
   */
  adapt(operation: Operation): Operation | undefined | Promise<Operation | undefined>;
  /** The tools the client may offer from a listing (a modern client must drop invalid ones). */
  screenTools(tools: Tool[]): Tool[];
  /**
   * Whether the dialect calls this tool by itself while it waits for deferred work (MCP-lite's
   * `redeem`): such a tool is kept from models while the client redeems.
   */
  callsItself?(tool: Tool): boolean;
  /** How long a list or read result stays fresh, in ms: the server's hint, or the era's default. */
  freshFor(result: JsonObject, method: string): number;
  /**
   * Asks once where deferred work stands: its final Outcome, or `pending` again. Dialects whose
   * servers never defer leave it out.
   */
  poll?(handle: PendingHandle, context: SendContext): Promise<PollOutcome>;
  /**
   * Sends the answers to the questions deferred work asked (2026-07-28 `tasks/update`). Returns
   * what the server said in return when the answers bring it at once (MCP-lite's `redeem`, which
   * carries them), else `undefined`: the next poll tells.
   */
  provide?(
    handle: PendingHandle,
    responses: Record<string, JsonObject>,
    context: SendContext,
  ): Promise<PollOutcome | undefined>;
  /** Asks the server to stop deferred work. Best effort: `signal` bounds the wait, never throws. */
  cancel?(handle: PendingHandle, signal: AbortSignal): Promise<void>;
  /**
   * Sends a notification to the server (`notifications/roots/list_changed`). Eras whose clients
   * send no such notifications leave it out.
   */
  notify?(method: string, signal: AbortSignal): Promise<void>;
  /** Tears down whatever the dialect holds open (streams, sessions). Never throws. */
  close(): Promise<void>;
}
