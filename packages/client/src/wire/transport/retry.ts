/**
 * The one place that decides whether a failed request is sent again, and when.
 *
 * The rule is about what the server may have seen, not about HTTP methods (MCP is all POST), and
 * it holds for every request of a call: its POST, the GETs that resume its stream, the renewal of
 * its session. A failure is sent again when it may pass (a refused or broken connection, 408,
 * 429, 502, 503, 504, a stream cut) and the call is idempotent or no request of it may yet have
 * reached the server. Every attempt counts as reaching the server unless what came back proves it
 * did not (a connection never made, a 3xx or 4xx, a 503, a JSON-RPC protocol error); the verdict
 * is the call's, kept on its deadline (`mayHaveRun`). A `tools/call` counts as idempotent only
 * when the tool says `idempotentHint: true`.
 */
import pRetry from 'p-retry';
import type { Deadline } from '../../core/deadline.ts';
import { sleep } from '../../core/deadline.ts';
import {
  AuthorizationError,
  GrpcStatusError,
  HttpStatusError,
  isMcpError,
  type McpError,
  StreamTruncatedError,
  TransportError,
} from '../../core/errors.ts';
import type { JsonRpcResponse } from '../../core/jsonrpc.ts';
import { pushback } from '../../core/pushback.ts';
import type { RetryPolicy } from '../../core/types.ts';
import {
  refusedGrpcCode,
  refusedRpcCode,
  refusedStatus,
  transientStatus,
} from '../../core/wire-codes.ts';
import { step } from '../../telemetry/span.ts';

/** A response by which the server refused the request without acting on it. */
export function refusedResponse(response: JsonRpcResponse): boolean {
  return 'error' in response && refusedRpcCode(response.error.code);
}

/**
 * Whether a request that failed with `error` may have been acted on. Only proof says no: a
 * connection never made, a refusing status (401 and 403 included, when authorization gave up),
 * or an internal failure marked `acted: false` (the 404 of a session the server forgot).
 */
export function mayHaveActed(error: unknown): boolean {
  if (error instanceof TransportError) return error.requestSent;
  // The server refused the credentials (401/403) and the gate gave up: it ran nothing.
  if (error instanceof AuthorizationError) return false;
  if (error instanceof HttpStatusError) return !refusedStatus(error.status ?? 0);
  if (error instanceof GrpcStatusError) return !refusedGrpcCode(error.grpcCode);
  return (error as { acted?: unknown } | null)?.acted !== false;
}

/** A failure that may pass if the same request is sent again. */
function transient(error: McpError): boolean {
  if (!error.retryable) return false;
  if (error instanceof HttpStatusError) return transientStatus(error.status ?? 0);
  // The gRPC binding marks UNAVAILABLE and RESOURCE_EXHAUSTED (without a negative push-back).
  if (error instanceof GrpcStatusError) return true;
  return error instanceof TransportError || error instanceof StreamTruncatedError;
}

/** Whether a request that failed with `error` is sent again, given what the call may have done. */
export function mayResend(error: unknown, idempotent: boolean, mayHaveRun: boolean): boolean {
  return isMcpError(error) && transient(error) && (idempotent || !mayHaveRun);
}

export interface RetryOptions<T> {
  idempotent: boolean;
  deadline: Deadline;
  /** Whether a result shows the server refused the request (a JSON-RPC protocol error). */
  refused?: ((result: T) => boolean) | undefined;
}

/**
 * Runs `attempt` until it succeeds, the policy gives up, or the deadline passes. The caller's
 * signal (inside the deadline) cancels a backoff wait at once.
 */
export function withRetry<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  options: RetryOptions<T>,
): Promise<T> {
  const { deadline } = options;
  if (deadline.aborted) return Promise.reject(deadline.reason);
  const retry = new Retry(attempt, policy, options, asIs);
  let sent: Promise<T>;
  try {
    sent = attempt();
  } catch (error) {
    sent = Promise.reject(error);
  }
  sent.then(
    (result) => retry.resolve(result),
    (error: unknown) => retry.reject(error),
  );
  return retry.promise;
}

function asIs<T>(value: T): T {
  return value;
}

/**
 * A request's attempts, as one object that whatever makes the first attempt settles: `withRetry`
 * with its promise, or a transport that reports to a settler (the stdio pipe), which then needs
 * no promise of its own. The answer is read with `read` where it settles, so a call has one
 * promise rather than one per layer.
 *
 * The first attempt runs bare: nearly every call succeeds at once, and p-retry's set-up costs
 * more than the request's own bookkeeping. It counts as reaching the server before it starts,
 * taken back when the answer proves otherwise (as `track` does for later ones). A failure that
 * may be sent again is handed to p-retry as its first attempt, so the backoff, the budget and
 * the Retry-After rules are the same. The call's deadline must not have ended yet.
 */
export class Retry<T, U> {
  readonly promise: Promise<U>;
  readonly #attempt: () => Promise<T>;
  readonly #policy: RetryPolicy;
  readonly #options: RetryOptions<T>;
  readonly #read: (result: T) => U | Promise<U>;
  readonly #before: boolean;
  #resolve!: (result: U | Promise<U>) => void;
  #reject!: (error: unknown) => void;

  constructor(
    attempt: () => Promise<T>,
    policy: RetryPolicy,
    options: RetryOptions<T>,
    read: (result: T) => U | Promise<U>,
  ) {
    this.#attempt = attempt;
    this.#policy = policy;
    this.#options = options;
    this.#read = read;
    this.#before = options.deadline.mayHaveRun;
    options.deadline.mayHaveRun = true;
    this.promise = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /** The first attempt's answer. */
  resolve(result: T): void {
    const { deadline, refused } = this.#options;
    try {
      if (refused?.(result)) deadline.mayHaveRun = this.#before;
      this.#resolve(
        deadline.aborted ? this.#next(deadline.reason).then(this.#read) : this.#read(result),
      );
    } catch (error) {
      this.#reject(error);
    }
  }

  /** The first attempt's failure: it stands, or the attempts go on. */
  reject(error: unknown): void {
    if (!mayHaveActed(error)) this.#options.deadline.mayHaveRun = this.#before;
    this.#resolve(this.#next(error).then(this.#read));
  }

  #next(error: unknown): Promise<T> {
    return afterFirst(error, this.#attempt, this.#policy, this.#options);
  }
}

/** The first attempt failed: the error stands, or p-retry takes over with it as attempt one. */
function afterFirst<T>(
  first: unknown,
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  options: RetryOptions<T>,
): Promise<T> {
  const { deadline, idempotent } = options;
  if (
    first instanceof Error &&
    !deadline.aborted &&
    !mayResend(first, idempotent, deadline.mayHaveRun)
  ) {
    return Promise.reject(first);
  }
  const tracked = () => track(attempt, options);
  let replayed = false;
  let resends = 0;
  let previous = first;
  return retrying(
    () => {
      if (!replayed) {
        replayed = true;
        return Promise.reject(first);
      }
      // Each resend is a `retry` span, saying which attempt it is and what the last one met.
      const why = { 'toolwire.retry.attempt': ++resends, 'toolwire.retry.after': codeOf(previous) };
      return step(deadline, 'retry', why, tracked).catch((error: unknown) => {
        previous = error;
        throw error;
      });
    },
    policy,
    options,
  );
}

function codeOf(error: unknown): string {
  if (error instanceof HttpStatusError) return `HTTP ${error.status}`;
  return isMcpError(error) ? error.code : String((error as Error | undefined)?.name);
}

/**
 * Runs one attempt and records on the call's deadline whether the server may have acted on it:
 * counted as reached before it starts, taken back only when the answer proves otherwise.
 */
async function track<T>(attempt: () => Promise<T>, options: RetryOptions<T>): Promise<T> {
  const { deadline, refused } = options;
  const before = deadline.mayHaveRun;
  deadline.mayHaveRun = true;
  try {
    const result = await attempt();
    if (refused?.(result)) deadline.mayHaveRun = before;
    return result;
  } catch (error) {
    if (!mayHaveActed(error)) deadline.mayHaveRun = before;
    throw error;
  }
}

function retrying<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  options: RetryOptions<T>,
): Promise<T> {
  const { deadline, idempotent } = options;
  return pRetry(attempt, {
    retries: policy.retries,
    minTimeout: policy.minDelayMs,
    maxTimeout: policy.maxDelayMs,
    factor: 2,
    randomize: true,
    signal: deadline.signal,
    maxRetryTime: deadline.remainingMs(),
    // Called before p-retry's own backoff delay: a server's Retry-After that is longer than the
    // backoff is waited out here, and one longer than the cap or the deadline ends the call.
    shouldRetry: async ({ error, retryDelay }) => {
      if (!mayResend(error, idempotent, deadline.mayHaveRun)) return false;
      const asked =
        error instanceof HttpStatusError || error instanceof GrpcStatusError
          ? error.retryAfterMs
          : undefined;
      if (asked === undefined) return true;
      // A 429 slows every call to the server, not only this one: the policy above hears it now.
      if (error instanceof HttpStatusError && error.status === 429) pushback(deadline, asked);
      if (asked > policy.maxRetryAfterMs || asked > deadline.remainingMs()) return false;
      if (asked > retryDelay) await sleep(asked - retryDelay, deadline.signal);
      return true;
    },
  });
}
