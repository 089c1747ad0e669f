/**
 * One error hierarchy for everything the client can fail with.
 *
 * Every error has a stable string `code` to branch on, the `family` that code belongs to (six
 * kinds of failure, see FAMILIES), `mayHaveRun` (whether the server may have acted on the call),
 * `retryable` (whether sending the same call again is safe and may succeed), the original
 * `cause`, and the context a user needs to act: the URL, HTTP status, JSON-RPC method, tool name
 * and an excerpt of what the server sent. Which wire code becomes which class: wire-codes.ts.
 */

import { grpcStatusName } from './grpc-statuses.ts';
import { type Deferred, describeHandle, withHandle } from './handle-notes.ts';
import type { CallHandle } from './types.ts';

const brand = Symbol.for('toolwire.error');

/** Where a failure happened. Every field is optional: each error fills in what it knows. */
export interface ErrorContext {
  url?: string | undefined;
  status?: number | undefined;
  /** The JSON-RPC method of the call that failed (`tools/call`, `initialize`, ...). */
  method?: string | undefined;
  tool?: string | undefined;
  /** The first bytes of the response body, for a human reading the error. */
  bodyExcerpt?: string | undefined;
}

export type McpErrorCode =
  | 'TRANSPORT'
  | 'SERVER_EXITED'
  | 'HTTP_STATUS'
  | 'GRPC_STATUS'
  | 'CONTENT_TYPE'
  | 'RESPONSE_TOO_LARGE'
  | 'STREAM_TRUNCATED'
  | 'MALFORMED_MESSAGE'
  | 'JSON_RPC'
  | 'HEADER_MISMATCH'
  | 'MISSING_CAPABILITY'
  | 'RESOURCE_NOT_FOUND'
  | 'UNSUPPORTED_VERSION'
  | 'UNSUPPORTED_SERVER'
  | 'OUTPUT_VALIDATION'
  | 'TOOL_NOT_FOUND'
  | 'SESSION_EXPIRED'
  | 'INPUT_REQUIRED'
  | 'HANDLER_FAILED'
  | 'INPUT_ROUNDS_EXCEEDED'
  | 'URL_ELICITATION_REQUIRED'
  | 'MORE_RESOURCE_REQUIRED'
  | 'WEBTOOL'
  | 'METADATA_CHANGED'
  | 'SKILL_VERIFICATION'
  | 'NOT_SUPPORTED'
  | 'HANDLE_EXPIRED'
  | 'TASK_FAILED'
  | 'TASK_CANCELLED'
  | 'TOO_MANY_PAGES'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'CLIENT_CLOSED'
  | 'INTERNAL'
  | 'AUTHORIZATION'
  | 'STORE_UNAVAILABLE'
  | 'DISCOVERY'
  | 'MISSING_INPUT'
  | 'RUNNER_MISSING';

/**
 * The kind of failure, for code that reacts to a kind rather than to one class:
 * - `transport`: no usable answer came back (the connection, an HTTP or gRPC status, a stream
 *   cut short, the deadline); often worth another try (`retryable` says).
 * - `protocol`: the server answered with what the client cannot use, or speaks nothing it knows.
 * - `refused`: the server understood and said no (a JSON-RPC error, an unknown tool or resource,
 *   a capability missing, a session or a handle it no longer knows).
 * - `tool`: the tool's work failed (its output, its task).
 * - `auth`: authorization failed for good.
 * - `local`: this side (the caller aborted or closed the client, no handler or a failing one, a
 *   store, a bug in toolwire).
 */
export type McpErrorFamily = 'transport' | 'protocol' | 'refused' | 'tool' | 'auth' | 'local';

/** Every code's family: a new code does not compile until it has one. */
const FAMILIES: Record<McpErrorCode, McpErrorFamily> = {
  TRANSPORT: 'transport',
  SERVER_EXITED: 'transport',
  HTTP_STATUS: 'transport',
  GRPC_STATUS: 'transport',
  STREAM_TRUNCATED: 'transport',
  TIMEOUT: 'transport',
  CONTENT_TYPE: 'protocol',
  RESPONSE_TOO_LARGE: 'protocol',
  MALFORMED_MESSAGE: 'protocol',
  UNSUPPORTED_VERSION: 'protocol',
  UNSUPPORTED_SERVER: 'protocol',
  TOO_MANY_PAGES: 'protocol',
  INPUT_ROUNDS_EXCEEDED: 'protocol',
  METADATA_CHANGED: 'protocol',
  SKILL_VERIFICATION: 'protocol',
  JSON_RPC: 'refused',
  HEADER_MISMATCH: 'refused',
  MISSING_CAPABILITY: 'refused',
  RESOURCE_NOT_FOUND: 'refused',
  TOOL_NOT_FOUND: 'refused',
  SESSION_EXPIRED: 'refused',
  URL_ELICITATION_REQUIRED: 'refused',
  WEBTOOL: 'refused',
  NOT_SUPPORTED: 'refused',
  HANDLE_EXPIRED: 'refused',
  OUTPUT_VALIDATION: 'tool',
  MORE_RESOURCE_REQUIRED: 'tool',
  TASK_FAILED: 'tool',
  TASK_CANCELLED: 'tool',
  AUTHORIZATION: 'auth',
  INPUT_REQUIRED: 'local',
  HANDLER_FAILED: 'local',
  ABORTED: 'local',
  CLIENT_CLOSED: 'local',
  STORE_UNAVAILABLE: 'local',
  DISCOVERY: 'protocol',
  MISSING_INPUT: 'local',
  RUNNER_MISSING: 'local',
  INTERNAL: 'local',
};

interface McpErrorOptions extends ErrorContext {
  cause?: unknown;
  /** Whether the failure may pass if the call is sent again; settled per call (see `settle`). */
  retryable?: boolean;
  mayHaveRun?: boolean;
  handle?: CallHandle | undefined;
}

export class McpError extends Error {
  override readonly name: string = 'McpError';
  readonly code: McpErrorCode;
  /** The kind of failure `code` is (see McpErrorFamily). */
  readonly family: McpErrorFamily;
  /**
   * Sending the same call again is safe, as it is, and may succeed: the failure was transient
   * (the connection, the server's load, the deadline) and the call either did not run or is
   * idempotent. Never true for a call that may have run and is not idempotent.
   */
  readonly retryable: boolean;
  /**
   * The server may have acted on the call: a request of it may have reached the server, and
   * nothing the server said proves it did not run. False only when the call was never sent, or
   * every request of it was refused (connection refused, 429, 503, a JSON-RPC protocol error...).
   */
  readonly mayHaveRun: boolean;
  readonly url: string | undefined;
  readonly status: number | undefined;
  readonly method: string | undefined;
  readonly tool: string | undefined;
  readonly bodyExcerpt: string | undefined;
  /**
   * The deferred work the call was waiting on, when it failed while waiting (a task, a promise):
   * `client.redeem(error.handle)` goes on waiting where a deadline or a closed client left off.
   * Not enumerable, so logging the error does not print the token.
   */
  declare readonly handle: CallHandle | undefined;

  constructor(code: McpErrorCode, message: string, options: McpErrorOptions = {}) {
    super(withContext(message, options), { cause: options.cause });
    this.code = code;
    this.family = FAMILIES[code];
    this.retryable = options.retryable ?? false;
    this.mayHaveRun = options.mayHaveRun ?? false;
    this.url = options.url;
    this.status = options.status;
    this.method = options.method;
    this.tool = options.tool;
    this.bodyExcerpt = options.bodyExcerpt;
    withHandle(this, options.handle);
  }

  /** Marks toolwire errors across copies of this package, where `instanceof` fails. */
  readonly [brand] = true;
}

/** True for any toolwire error, even one thrown by another copy of this package. */
export function isMcpError(value: unknown): value is McpError {
  return (
    typeof value === 'object' && value !== null && (value as { [brand]?: unknown })[brand] === true
  );
}

/** "what failed: METHOD url" keeps messages greppable and tells the reader where to look. */
function withContext(message: string, context: ErrorContext): string {
  const where = [context.method, context.tool && `(${context.tool})`, context.url]
    .filter(Boolean)
    .join(' ');
  return where ? `${message}: ${where}` : message;
}

/** The connection failed or broke: refused, reset, DNS, TLS. */
export class TransportError extends McpError {
  override readonly name: string = 'TransportError';
  /** False only when the server cannot have seen the request (the connection was refused). */
  readonly requestSent: boolean;
  constructor(
    message: string,
    options: McpErrorOptions & { requestSent?: boolean } = {},
    // A subclass whose failure a caller tells apart by code alone (ServerExitedError).
    code: 'TRANSPORT' | 'SERVER_EXITED' = 'TRANSPORT',
  ) {
    super(code, message, options);
    this.requestSent = options.requestSent ?? true;
  }
}

/** How a local server process ended, as the operating system told it. */
export interface ProcessExit {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  signal: string | null;
  /** The last lines it wrote to stderr, oldest first. */
  stderr: readonly string[];
}

/**
 * A local server process (stdio) ended while the client needed it: every call waiting on it has
 * lost its answer. `exitCode`, `signal` and the tail of its `stderr` usually say why.
 */
export class ServerExitedError extends TransportError {
  override readonly name = 'ServerExitedError';
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stderr: readonly string[];
  constructor(exit: ProcessExit, options: McpErrorOptions & { requestSent?: boolean } = {}) {
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const last = exit.stderr.at(-1);
    const said = last === undefined ? '' : ` (stderr: ${last.slice(0, 200)})`;
    super(`server process ${how}${said}`, { retryable: true, ...options }, 'SERVER_EXITED');
    this.exitCode = exit.code;
    this.signal = exit.signal;
    this.stderr = exit.stderr;
  }
}

/** The server answered with an HTTP status that carries no JSON-RPC message. */
export class HttpStatusError extends McpError {
  override readonly name = 'HttpStatusError';
  /** How long the server asked us to wait (`Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;
  /** The first line of a plain-text body: often the fix ("Access is only allowed at ..."). */
  readonly reason: string | undefined;
  constructor(
    status: number,
    options: McpErrorOptions & { retryAfterMs?: number | undefined; reason?: string | undefined },
  ) {
    const said = options.reason ? ` "${options.reason}"` : '';
    super('HTTP_STATUS', `server answered HTTP ${status}${said}`, { ...options, status });
    this.retryAfterMs = options.retryAfterMs;
    this.reason = options.reason;
  }
}

/**
 * A gRPC status (MCP-lite's gRPC binding) that no other class here says better: UNAVAILABLE and
 * RESOURCE_EXHAUSTED from the server, UNAUTHENTICATED, PERMISSION_DENIED, FAILED_PRECONDITION,
 * and the rest. The statuses that do have a class become it (INVALID_ARGUMENT a `JsonRpcError`
 * -32602, DEADLINE_EXCEEDED a `TimeoutError`, ...). UNAUTHENTICATED and PERMISSION_DENIED set
 * `status` to 401 and 403, the HTTP statuses of the same meaning.
 */
export class GrpcStatusError extends McpError {
  override readonly name = 'GrpcStatusError';
  /** The status's number (14 for UNAVAILABLE). */
  readonly grpcCode: number;
  /** The status's name (`UNAVAILABLE`). */
  readonly grpcStatus: string;
  /** `grpc-message` as the server wrote it. */
  readonly serverMessage: string;
  /** The status's details: a `google.protobuf.Struct` as JSON, or a `google.rpc.ErrorInfo`. */
  readonly data: unknown;
  /** How long the server asked us to wait (`grpc-retry-pushback-ms`), when it said. */
  readonly retryAfterMs: number | undefined;
  constructor(
    grpcCode: number,
    serverMessage: string,
    options: McpErrorOptions & { data?: unknown; retryAfterMs?: number | undefined } = {},
  ) {
    const grpcStatus = grpcStatusName(grpcCode);
    const said = serverMessage === '' ? '' : ` "${serverMessage}"`;
    super('GRPC_STATUS', `server answered gRPC ${grpcStatus}${said}`, options);
    this.grpcCode = grpcCode;
    this.grpcStatus = grpcStatus;
    this.serverMessage = serverMessage;
    this.data = options.data;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * The response's media type is not one the protocol allows here (an HTML error page, say).
 * Something answered: the call may have run.
 */
export class ContentTypeError extends McpError {
  override readonly name = 'ContentTypeError';
  readonly contentType: string;
  constructor(contentType: string, options: McpErrorOptions = {}) {
    super('CONTENT_TYPE', `unexpected content type "${contentType || '(none)'}"`, {
      mayHaveRun: true,
      ...options,
    });
    this.contentType = contentType;
  }
}

/**
 * The response body or one SSE event went past the configured limit, or the pages of one list
 * together went past `maxListBytes` (`what: 'list'`).
 */
export class ResponseTooLargeError extends McpError {
  override readonly name = 'ResponseTooLargeError';
  readonly limit: number;
  constructor(what: 'body' | 'event' | 'list', limit: number, options: McpErrorOptions = {}) {
    super(
      'RESPONSE_TOO_LARGE',
      what === 'list'
        ? `the list's pages exceed ${limit} bytes (maxListBytes)`
        : `response ${what} exceeds ${limit} bytes`,
      { mayHaveRun: true, ...options },
    );
    this.limit = limit;
  }
}

/**
 * An SSE stream ended before the response it owed us, and could not be resumed. The server
 * accepted the request: the call may have run.
 */
export class StreamTruncatedError extends McpError {
  override readonly name = 'StreamTruncatedError';
  constructor(options: McpErrorOptions = {}) {
    super('STREAM_TRUNCATED', 'event stream ended before the response arrived', {
      retryable: true,
      mayHaveRun: true,
      ...options,
    });
  }
}

/** The server sent something that is not a JSON-RPC message we can use: the call may have run. */
export class MalformedMessageError extends McpError {
  override readonly name = 'MalformedMessageError';
  constructor(detail: string, options: McpErrorOptions = {}) {
    super('MALFORMED_MESSAGE', `malformed message (${detail})`, { mayHaveRun: true, ...options });
  }
}

type JsonRpcErrorOptions = McpErrorOptions & { data?: unknown };

/** The server answered the call with a JSON-RPC error. `rpcCode` and `data` are the server's. */
export class JsonRpcError extends McpError {
  override readonly name: string = 'JsonRpcError';
  readonly rpcCode: number;
  /** The error's message as the server wrote it. */
  readonly serverMessage: string;
  readonly data: unknown;
  constructor(
    rpcCode: number,
    serverMessage: string,
    options: JsonRpcErrorOptions = {},
    code: McpErrorCode = 'JSON_RPC',
  ) {
    super(code, `server error ${rpcCode} "${serverMessage}"`, options);
    this.rpcCode = rpcCode;
    this.serverMessage = serverMessage;
    this.data = options.data;
  }
}

/** -32020: the mirrored HTTP headers did not match the body (a tool's schema may have changed). */
export class HeaderMismatchError extends JsonRpcError {
  override readonly name = 'HeaderMismatchError';
  constructor(serverMessage: string, options: JsonRpcErrorOptions = {}) {
    super(-32020, serverMessage, options, 'HEADER_MISMATCH');
  }
}

/**
 * A capability one side needs and the other did not declare. `side: 'server'`: the server did
 * not declare what the operation needs (`capability`: `prompts`, `resources.subscribe`, ...), and
 * nothing was sent. `side: 'client'`: the server refused a call with -32021, naming in
 * `requiredCapabilities` the client capabilities it needs (register the matching handler).
 */
export class MissingCapabilityError extends McpError {
  override readonly name = 'MissingCapabilityError';
  /** Whose declaration lacks the capability. */
  readonly side: 'server' | 'client';
  /** The capability, as a dotted path of the capabilities object, when one is named. */
  readonly capability: string | undefined;
  /** What the server asked for (`data.requiredCapabilities`), on the client side. */
  readonly requiredCapabilities: unknown;
  /** -32021 when the server refused the call, undefined when nothing was sent. */
  readonly rpcCode: number | undefined;
  readonly data: unknown;

  /** The server refused with -32021: it needs a client capability the client did not declare. */
  static fromServer(
    serverMessage: string,
    options: JsonRpcErrorOptions = {},
  ): MissingCapabilityError {
    const data = options.data;
    const required =
      typeof data === 'object' && data !== null
        ? (data as { requiredCapabilities?: unknown }).requiredCapabilities
        : undefined;
    const named = typeof required === 'object' && required !== null ? Object.keys(required) : [];
    return new MissingCapabilityError(
      'client',
      named.length > 0 ? named.join(', ') : undefined,
      `the server needs a client capability the client did not declare: server error -32021 "${serverMessage}"`,
      { ...options, rpcCode: -32021, requiredCapabilities: required },
    );
  }

  /** The server did not declare `capability`, which the operation needs; nothing was sent. */
  static ofServer(capability: string, options: McpErrorOptions = {}): MissingCapabilityError {
    return new MissingCapabilityError(
      'server',
      capability,
      `the server did not declare the ${capability} capability`,
      options,
    );
  }

  private constructor(
    side: 'server' | 'client',
    capability: string | undefined,
    message: string,
    options: JsonRpcErrorOptions & { rpcCode?: number; requiredCapabilities?: unknown },
  ) {
    super('MISSING_CAPABILITY', message, options);
    this.side = side;
    this.capability = capability;
    this.requiredCapabilities = options.requiredCapabilities;
    this.rpcCode = options.rpcCode;
    this.data = options.data;
  }
}

/** `resources/read` of a resource the server does not have: -32002 before 2026-07-28, -32602 since. */
export class ResourceNotFoundError extends JsonRpcError {
  override readonly name = 'ResourceNotFoundError';
  constructor(rpcCode: number, serverMessage: string, options: JsonRpcErrorOptions = {}) {
    super(rpcCode, serverMessage, options, 'RESOURCE_NOT_FOUND');
  }
}

/** Nothing at the URL speaks a protocol the client knows. `probes` says what each attempt got. */
export class UnsupportedServerError extends McpError {
  override readonly name = 'UnsupportedServerError';
  readonly probes: readonly string[];
  /** What to try instead, when the probes point at it (every one a 404: a wrong path). */
  readonly hint: string | undefined;
  constructor(
    probes: readonly string[],
    options: McpErrorOptions & { hint?: string | undefined } = {},
  ) {
    const hint = options.hint ? `. ${options.hint}` : '';
    super(
      'UNSUPPORTED_SERVER',
      `no protocol the client speaks answered (${probes.join('; ')})${hint}`,
      options,
    );
    this.probes = probes;
    this.hint = options.hint;
  }
}

/** The server and the client share no protocol version. */
export class UnsupportedVersionError extends McpError {
  override readonly name = 'UnsupportedVersionError';
  readonly offered: string;
  readonly supported: readonly string[];
  constructor(offered: string, supported: readonly string[], options: McpErrorOptions = {}) {
    super(
      'UNSUPPORTED_VERSION',
      `server chose protocol version "${offered}", the client speaks ${supported.join(', ')}`,
      options,
    );
    this.offered = offered;
    this.supported = supported;
  }
}

/** A successful tool result whose `structuredContent` does not match the tool's `outputSchema`. */
export class OutputValidationError extends McpError {
  override readonly name = 'OutputValidationError';
  /** The result as the server sent it, so nothing is lost. */
  readonly result: unknown;
  readonly problems: readonly string[];
  constructor(result: unknown, problems: readonly string[], options: McpErrorOptions = {}) {
    super(
      'OUTPUT_VALIDATION',
      `structuredContent does not match the tool's outputSchema (${problems.join('; ')})`,
      { mayHaveRun: true, ...options },
    );
    this.result = result;
    this.problems = problems;
  }
}

/** The server does not know the tool. `available` lists the tools it does offer. */
export class ToolNotFoundError extends McpError {
  override readonly name = 'ToolNotFoundError';
  readonly available: readonly string[];
  constructor(available: readonly string[], options: McpErrorOptions = {}) {
    super(
      'TOOL_NOT_FOUND',
      `unknown tool (the server offers ${available.join(', ') || 'none'})`,
      options,
    );
    this.available = available;
  }
}

/**
 * The server forgot the session, and the call could not be replayed in a new one: it may already
 * have run (`mayHaveRun`), or a new session could not be started (`cause` says why).
 */
export class SessionExpiredError extends McpError {
  override readonly name = 'SessionExpiredError';
  constructor(options: McpErrorOptions & { reason?: string } = {}) {
    super(
      'SESSION_EXPIRED',
      options.reason ?? 'session expired and the call is not safe to replay',
      {
        retryable: true,
        ...options,
      },
    );
  }
}

/**
 * The server asked the client something (elicitation, sampling, roots) that no registered handler
 * answers. `requests` names what was asked ("elicitation/create (url)"); `handlers` names the
 * options that would have answered it.
 */
export class InputRequiredError extends McpError {
  override readonly name = 'InputRequiredError';
  readonly requests: readonly string[];
  readonly handlers: readonly string[];
  constructor(
    requests: readonly string[],
    options: McpErrorOptions & { handlers?: readonly string[] } = {},
  ) {
    const handlers = options.handlers ?? [];
    const hint = handlers.length > 0 ? ` (register ${handlers.join(', ')})` : '';
    super(
      'INPUT_REQUIRED',
      `server asked for ${requests.join(', ')} and no handler answers it${hint}`,
      options,
    );
    this.requests = requests;
    this.handlers = handlers;
  }
}

/**
 * A handler threw, or answered something the server must not be sent (a form answer that does
 * not match the form, a sampling result without a model). `cause` is what the handler threw;
 * `problems` lists what was wrong with its answer.
 */
export class HandlerError extends McpError {
  override readonly name = 'HandlerError';
  /** The server's request the handler was answering (`elicitation/create`, ...). */
  readonly request: string;
  readonly problems: readonly string[];
  constructor(
    request: string,
    what: string,
    options: McpErrorOptions & { problems?: readonly string[] } = {},
  ) {
    const problems = options.problems ?? [];
    const detail = problems.length > 0 ? ` (${problems.join('; ')})` : '';
    super('HANDLER_FAILED', `the ${request} handler ${what}${detail}`, options);
    this.request = request;
    this.problems = problems;
  }
}

/** The server kept answering `input_required` past the client's `maxInputRounds`. */
export class InputRoundsExceededError extends McpError {
  override readonly name = 'InputRoundsExceededError';
  readonly rounds: number;
  constructor(rounds: number, options: McpErrorOptions = {}) {
    super(
      'INPUT_ROUNDS_EXCEEDED',
      `server still asked for input after ${rounds} rounds (maxInputRounds)`,
      options,
    );
    this.rounds = rounds;
  }
}

/**
 * -32042 (2025-11-25): the call needs the user to finish URL elicitations first, and no handler
 * took them on or the user declined. `elicitations` are the server's, as sent.
 */
export class UrlElicitationRequiredError extends JsonRpcError {
  override readonly name = 'UrlElicitationRequiredError';
  readonly elicitations: readonly JsonObjectLike[];
  constructor(serverMessage: string, options: JsonRpcErrorOptions = {}) {
    super(-32042, serverMessage, options, 'URL_ELICITATION_REQUIRED');
    const data = options.data;
    const list =
      typeof data === 'object' && data !== null
        ? (data as { elicitations?: unknown }).elicitations
        : undefined;
    this.elicitations = Array.isArray(list)
      ? list.filter((item): item is JsonObjectLike => typeof item === 'object' && item !== null)
      : [];
  }
}

type JsonObjectLike = Record<string, unknown>;

/** A list went on past `maxPages` pages (a server whose cursor never ends, say). */
export class TooManyPagesError extends McpError {
  override readonly name = 'TooManyPagesError';
  readonly pages: number;
  constructor(pages: number, options: McpErrorOptions = {}) {
    super('TOO_MANY_PAGES', `the list went on past ${pages} pages (maxPages)`, options);
    this.pages = pages;
  }
}

/** The call's deadline passed. */
export class TimeoutError extends McpError {
  override readonly name = 'TimeoutError';
  readonly timeoutMs: number;
  constructor(timeoutMs: number, options: McpErrorOptions = {}) {
    super('TIMEOUT', `no answer within ${timeoutMs} ms`, { retryable: true, ...options });
    this.timeoutMs = timeoutMs;
  }
}

/** The caller aborted the call. `cause` is the signal's reason. */
export class AbortedError extends McpError {
  override readonly name = 'AbortedError';
  constructor(options: McpErrorOptions = {}) {
    super('ABORTED', 'call aborted', options);
  }
}

/** The client was closed while the call was running, or before it started. */
export class ClientClosedError extends McpError {
  override readonly name = 'ClientClosedError';
  constructor(options: McpErrorOptions = {}) {
    super('CLIENT_CLOSED', 'client is closed', options);
  }
}

/**
 * Something failed that toolwire has no name for: a bug, reported here rather than escaping as a
 * plain TypeError. `cause` is the original error. Please report it.
 */
export class InternalError extends McpError {
  override readonly name = 'InternalError';
  constructor(cause: unknown, options: McpErrorOptions = {}) {
    const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    super('INTERNAL', `toolwire failed unexpectedly (${detail})`, { ...options, cause });
  }
}

/**
 * An MCP-lite server answered `request-for-more-resource`: it cannot go on with what it was
 * given. `result` is the server's answer, normalised, with its `_meta` (the seed leaves the rest
 * of the shape open, so what the server asks for is in there).
 */
export class MoreResourceRequiredError extends McpError {
  override readonly name = 'MoreResourceRequiredError';
  readonly result: unknown;
  constructor(result: unknown, options: McpErrorOptions = {}) {
    super('MORE_RESOURCE_REQUIRED', 'server asked for more resources to go on', options);
    this.result = result;
  }
}

/**
 * A Webtools error envelope (`status: "error"`), or a configuration the client refused before
 * sending. `webtoolCode` is the server's string code: `WEBTOOL_NOT_FOUND`, `SCHEMA_ERROR`,
 * `CONFIG_ERROR`, `RATE_LIMIT` (retryable), `INTERNAL_ERROR`, or one of the webtool's own.
 */
export class WebtoolError extends McpError {
  override readonly name = 'WebtoolError';
  readonly webtoolCode: string;
  constructor(webtoolCode: string, serverMessage: string, options: McpErrorOptions = {}) {
    super('WEBTOOL', `webtool error ${webtoolCode} "${serverMessage}"`, {
      retryable: webtoolCode === 'RATE_LIMIT',
      ...options,
    });
    this.webtoolCode = webtoolCode;
  }
}

/**
 * A webtool's metadata no longer matches what the application locked in (or what this client
 * first saw): a changed description or schema must not reach a model unseen. `metadata` is what
 * the server serves now, for the application to review.
 */
export class MetadataChangedError extends McpError {
  override readonly name = 'MetadataChangedError';
  readonly expectedDigest: string;
  readonly actualDigest: string;
  readonly metadata: unknown;
  constructor(
    expectedDigest: string,
    actualDigest: string,
    metadata: unknown,
    options: McpErrorOptions = {},
  ) {
    super(
      'METADATA_CHANGED',
      `webtool metadata changed (expected ${expectedDigest}, got ${actualDigest})`,
      options,
    );
    this.expectedDigest = expectedDigest;
    this.actualDigest = actualDigest;
    this.metadata = metadata;
  }
}

/** Which check of a skill (`io.modelcontextprotocol/skills`) failed. */
export type SkillCheck =
  /** The entry is not a skill: no SKILL.md uri, no name or description, `resources` neither a list nor "dynamic". */
  | 'entry'
  /** The uri's last segment before SKILL.md is not the frontmatter's name. */
  | 'name'
  /** A uri leaves the skill's root (`..`, `%2e%2e`, an encoded slash), or the entry lists SKILL.md nowhere. */
  | 'path'
  /** Past the specification's limits: 512 files, 16 MiB. */
  | 'limits'
  /** A file the entry does not list. */
  | 'unlisted'
  /** The bytes are not as long as the entry says. */
  | 'size'
  /** The bytes do not hash to the entry's digest. */
  | 'digest'
  /** SKILL.md's frontmatter disagrees with the entry's, or cannot be read. */
  | 'frontmatter'
  /** A dynamic (unverifiable) skill the application declined. */
  | 'dynamic';

/**
 * A skill, or one of its files, failed a check: nothing of what failed is returned. `check` says
 * which; `server` and `skill` say whose, `file` which file. A file that fails its digest or size
 * may be fixed by the server: `getSkill(uri, { refresh: true })` fetches the entry again.
 */
export class SkillVerificationError extends McpError {
  override readonly name = 'SkillVerificationError';
  readonly check: SkillCheck;
  /** The SKILL.md uri of the skill. */
  readonly skill: string;
  /** The file that failed, when one did. */
  readonly file: string | undefined;
  constructor(
    check: SkillCheck,
    detail: string,
    where: { skill: string; file?: string | undefined },
    options: McpErrorOptions = {},
  ) {
    super('SKILL_VERIFICATION', `skill ${where.skill} refused (${check}: ${detail})`, {
      retryable: false,
      ...options,
    });
    this.check = check;
    this.skill = where.skill;
    this.file = where.file;
  }
}

/** The dialect has no such operation (MCP-lite and Webtools have tools only, say). */
export class NotSupportedError extends McpError {
  override readonly name = 'NotSupportedError';
  readonly dialect: string;
  constructor(dialect: string, options: McpErrorOptions = {}) {
    super('NOT_SUPPORTED', `the ${dialect} dialect has no such operation`, options);
    this.dialect = dialect;
  }
}

/**
 * The server no longer knows the deferred work: an MCP-lite promise token or a task that expired,
 * was never issued, or was already collected. `handle` says which.
 */
export class HandleExpiredError extends McpError {
  override readonly name = 'HandleExpiredError';
  constructor(pending: Deferred, options: McpErrorOptions = {}) {
    super('HANDLE_EXPIRED', `${describeHandle(pending)} is unknown to the server or expired`, {
      retryable: false,
      ...options,
    });
  }
}

/**
 * A task ended in `failed`: the server hit a protocol-level error while running it (a tool that
 * ran and reported a failure completes with `isError` instead). `rpcCode` and `data` are the
 * server's.
 */
export class TaskFailedError extends McpError {
  override readonly name = 'TaskFailedError';
  readonly rpcCode: number | undefined;
  readonly data: unknown;
  constructor(pending: Deferred, failure: unknown, options: McpErrorOptions = {}) {
    const { code, message, data } = (
      typeof failure === 'object' && failure !== null ? failure : {}
    ) as { code?: unknown; message?: unknown; data?: unknown };
    const rpcCode = typeof code === 'number' ? code : undefined;
    const detail = typeof message === 'string' ? ` "${message}"` : '';
    const shown = rpcCode === undefined ? '' : ` ${rpcCode}`;
    super('TASK_FAILED', `${describeHandle(pending)} failed with error${shown}${detail}`, options);
    this.rpcCode = rpcCode;
    this.data = data;
  }
}

/** A task ended in `cancelled` without this client asking (the server or another client did). */
export class TaskCancelledError extends McpError {
  override readonly name = 'TaskCancelledError';
  constructor(pending: Deferred, options: McpErrorOptions = {}) {
    super('TASK_CANCELLED', `${describeHandle(pending)} was cancelled`, options);
  }
}

/** Why authorization failed for good (see AuthorizationError). */
export type AuthorizationFailure =
  /** The server refused the credentials, and fresh ones did not help (or none can be had). */
  | 'rejected'
  /** The server wants scopes the client could not obtain within `maxStepUps`. */
  | 'insufficient_scope'
  /** The server's protected-resource metadata names another resource. */
  | 'resource_mismatch'
  /** No usable protected-resource or authorization-server metadata was found. */
  | 'discovery'
  /** Metadata or an authorization response named another issuer than the one asked (RFC 8414, RFC 9207). */
  | 'issuer_mismatch'
  /** The authorization server does not offer what the client must use (PKCE S256, a grant, a registration). */
  | 'unsupported'
  /** The authorization server refused the client, the grant or a request (`oauthError` says how). */
  | 'refused'
  /** The user or the authorization server denied the authorization (`oauthError` says how). */
  | 'denied'
  /** An interactive authorization is needed and no `authorize` callback was given. */
  | 'interaction_required'
  /** A callback of the application's (`authorize`, a token function, a provider) threw: `cause`. */
  | 'callback_failed'
  /**
   * The server refused to be spoken to without credentials (401 or 403 while connecting) and no
   * `auth` was given: `scheme` is what its challenge names; `cause` is the refusal.
   */
  | 'credentials_required';

/**
 * Authorization failed for good: the server still refuses, or the authorization server said no.
 * Never carries a token, a secret or a code: `cause` holds no raw response of the authorization
 * server, only what it said went wrong.
 */
export class AuthorizationError extends McpError {
  override readonly name = 'AuthorizationError';
  readonly reason: AuthorizationFailure;
  /** The authorization server's error code (`invalid_grant`, `access_denied`, ...), when it sent one. */
  readonly oauthError: string | undefined;
  /** The scheme of the server's `WWW-Authenticate` challenge (`Bearer`), when it sent one. */
  readonly scheme: string | undefined;
  constructor(
    reason: AuthorizationFailure,
    message: string,
    options: McpErrorOptions & {
      oauthError?: string | undefined;
      scheme?: string | undefined;
    } = {},
  ) {
    super('AUTHORIZATION', message, options);
    this.reason = reason;
    this.oauthError = options.oauthError;
    this.scheme = options.scheme;
  }
}

/**
 * A shared store (handles, verdicts, credentials) did not answer in time or failed. The client
 * reports it as a `warning` and goes on in memory where it can; a call that needs what the store
 * holds fails with it.
 */
export class StoreUnavailableError extends McpError {
  override readonly name = 'StoreUnavailableError';
  /** Which store, and what it was asked: `verdicts.get`, `handles.save`, ... */
  readonly operation: string;
  constructor(operation: string, detail: string, options: McpErrorOptions = {}) {
    super('STORE_UNAVAILABLE', `store unavailable: ${operation} ${detail}`, {
      retryable: true,
      ...options,
    });
    this.operation = operation;
  }
}

/**
 * A catalog, a Server Card or a registry entry could not be used: not found, not JSON, not the
 * published shape, sent from another origin by a redirect, or a bundle whose digest is wrong.
 * `document` names what was being read (`catalog`, `card`, `registry`, `bundle`).
 */
export class DiscoveryError extends McpError {
  override readonly name = 'DiscoveryError';
  readonly document: string;
  constructor(document: string, detail: string, options: McpErrorOptions = {}) {
    super('DISCOVERY', `${document}: ${detail}`, options);
    this.document = document;
  }
}

/**
 * A card's or entry's input (a URL variable, a header, an argument, an environment variable) has
 * no value: required and not given, or not one of its choices or its format. Names the input,
 * never its value, so a secret stays out of the message.
 */
export class MissingInputError extends McpError {
  override readonly name = 'MissingInputError';
  readonly input: string;
  constructor(input: string, detail: string, options: McpErrorOptions = {}) {
    super('MISSING_INPUT', `input ${input}: ${detail}`, options);
    this.input = input;
  }
}

/**
 * A registry package needs a program this machine lacks (`npx`, `uvx`, `docker`), or is of a kind
 * toolwire cannot run. `install` says what to install.
 */
export class RunnerMissingError extends McpError {
  override readonly name = 'RunnerMissingError';
  readonly runner: string;
  readonly install: string;
  constructor(runner: string, install: string, options: McpErrorOptions = {}) {
    super('RUNNER_MISSING', `cannot run the package without ${runner}: ${install}`, options);
    this.runner = runner;
    this.install = install;
  }
}
