/**
 * The one place that decides whether a failed request is sent again, and when.
 *
 * The rule is about what the server may have seen, not about HTTP methods (MCP is all POST):
 * a request the server cannot have acted on (connection refused, 429, 503) may always be sent
 * again; anything else only when the operation is idempotent. A `tools/call` counts as
 * idempotent only when the tool says `idempotentHint: true`.
 */
import pRetry from 'p-retry';
import type { Deadline } from '../deadline.ts';
import { sleep } from '../deadline.ts';
import {
  GrpcStatusError,
  HttpStatusError,
  isMcpError,
  StreamTruncatedError,
  TransportError,
} from '../errors.ts';
import { step } from '../telemetry/span.ts';

export interface RetryPolicy {
  /** How many times a request may be sent again after the first try. */
  retries: number;
  /** The first backoff delay; each later one doubles, with jitter. */
  minDelayMs: number;
  maxDelayMs: number;
  /** The longest `Retry-After` the client will wait; a longer one fails the call at once. */
  maxRetryAfterMs: number;
}

/** Statuses by which the server says it did not process the request. */
const REFUSED = new Set([408, 429, 503]);
/** Statuses from a gateway that may have passed the request on before failing. */
const GATEWAY = new Set([502, 504]);
/** gRPC statuses by which the server refuses a call without running it. */
const GRPC_REFUSED = new Set(['RESOURCE_EXHAUSTED']);

export function mayResend(error: unknown, idempotent: boolean): boolean {
  if (!isMcpError(error) || !error.retryable) return false;
  if (error instanceof TransportError) return idempotent || !error.requestSent;
  // The request was accepted and its stream lost: only a request that may run twice goes again.
  if (error instanceof StreamTruncatedError) return idempotent;
  if (error instanceof HttpStatusError) {
    const status = error.status ?? 0;
    return REFUSED.has(status) || (idempotent && GATEWAY.has(status));
  }
  // gRPC: RESOURCE_EXHAUSTED is push-back (a 429); an UNAVAILABLE the server sent came after it
  // had the call, and gRPC itself resends that only when told the call is safe to repeat.
  if (error instanceof GrpcStatusError) return GRPC_REFUSED.has(error.grpcStatus) || idempotent;
  return false;
}

/**
 * Runs `attempt` until it succeeds, the policy gives up, or the deadline passes. The caller's
 * signal (inside the deadline) cancels a backoff wait at once.
 *
 * The first attempt runs bare: nearly every call succeeds at once, and p-retry's set-up costs
 * more than the request's own bookkeeping. A failure that may be sent again is handed to p-retry
 * as its first attempt, so the backoff, the budget and the Retry-After rules are the same.
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  options: { idempotent: boolean; deadline: Deadline },
): Promise<T> {
  const { signal } = options.deadline;
  signal.throwIfAborted();
  let first: unknown;
  try {
    const result = await attempt();
    signal.throwIfAborted();
    return result;
  } catch (error) {
    if (error instanceof Error && !signal.aborted && !mayResend(error, options.idempotent)) {
      throw error;
    }
    first = error;
  }
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
      return step(options.deadline, 'retry', why, attempt).catch((error: unknown) => {
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

function retrying<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  options: { idempotent: boolean; deadline: Deadline },
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
      if (!mayResend(error, idempotent)) return false;
      const asked =
        error instanceof HttpStatusError || error instanceof GrpcStatusError
          ? error.retryAfterMs
          : undefined;
      if (asked === undefined) return true;
      if (asked > policy.maxRetryAfterMs || asked > deadline.remainingMs()) return false;
      if (asked > retryDelay) await sleep(asked - retryDelay, deadline.signal);
      return true;
    },
  });
}
