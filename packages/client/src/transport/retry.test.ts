import { afterEach, describe, expect, it, vi } from 'vitest';
import { Deadline } from '../deadline.ts';
import { AbortedError, HttpStatusError, TimeoutError, TransportError } from '../errors.ts';
import { mayResend, type RetryPolicy, withRetry } from './retry.ts';

const policy: RetryPolicy = { retries: 3, minDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 1_000 };
const open: Deadline[] = [];

/** A call's deadline with the client's default hard cap (600 s) above `timeoutMs`. */
function deadline(signal?: AbortSignal, timeoutMs = 10_000): Deadline {
  const d = new Deadline({ timeoutMs, maxTimeoutMs: 600_000, signal, context: {} });
  open.push(d);
  return d;
}

function refused(status: number, retryAfterMs?: number): HttpStatusError {
  return new HttpStatusError(status, { retryable: true, retryAfterMs });
}

/** An attempt function that throws `failures` in order, then resolves 'ok'; counts its calls. */
function attempts(...failures: Error[]) {
  let calls = 0;
  return vi.fn(async () => {
    const failure = failures[calls++];
    if (failure) throw failure;
    return 'ok';
  });
}

afterEach(() => {
  for (const d of open.splice(0)) d[Symbol.dispose]();
  vi.useRealTimers();
});

describe('mayResend', () => {
  it.each([
    { sent: false, idempotent: false, resend: true },
    { sent: false, idempotent: true, resend: true },
    { sent: true, idempotent: false, resend: false },
    { sent: true, idempotent: true, resend: true },
  ])(
    'lets a transport error with requestSent=$sent be resent when idempotent=$idempotent: $resend',
    ({ sent, idempotent, resend }) => {
      const error = new TransportError('connection failed', { retryable: true, requestSent: sent });
      expect(mayResend(error, idempotent)).toBe(resend);
    },
  );

  it.each([408, 429, 503])('always resends HTTP %i, idempotent or not', (status) => {
    expect(mayResend(refused(status), false)).toBe(true);
    expect(mayResend(refused(status), true)).toBe(true);
  });

  it.each([502, 504])('resends gateway status %i only when idempotent', (status) => {
    expect(mayResend(refused(status), false)).toBe(false);
    expect(mayResend(refused(status), true)).toBe(true);
  });

  it.each([500, 400, 404])('never resends HTTP %i', (status) => {
    expect(mayResend(refused(status), false)).toBe(false);
    expect(mayResend(refused(status), true)).toBe(false);
  });

  it('never resends a toolwire error marked not retryable', () => {
    const transport = new TransportError('x', { retryable: false, requestSent: false });
    expect(mayResend(transport, true)).toBe(false);
    expect(mayResend(new HttpStatusError(503, { retryable: false }), true)).toBe(false);
  });

  it('never resends a retryable toolwire error other than transport and HTTP status errors', () => {
    expect(mayResend(new TimeoutError(10), true)).toBe(false);
  });

  it('never resends an error that is not a toolwire error', () => {
    const lookalike = Object.assign(new Error('x'), { retryable: true, code: 'ECONNREFUSED' });
    expect(mayResend(lookalike, true)).toBe(false);
    expect(mayResend('ECONNREFUSED', true)).toBe(false);
  });
});

describe('withRetry', () => {
  it('retries a 503 and returns the result of the attempt that succeeds', async () => {
    const attempt = attempts(refused(503), refused(503));
    const result = await withRetry(attempt, policy, { idempotent: false, deadline: deadline() });
    expect(result).toBe('ok');
    expect(attempt).toHaveBeenCalledTimes(3);
  });

  it('gives up with the last error once the retries are spent', async () => {
    const last = refused(503);
    const attempt = attempts(refused(503), refused(503), last);
    const retryPolicy = { ...policy, retries: 2 };
    const outcome = withRetry(attempt, retryPolicy, { idempotent: true, deadline: deadline() });
    await expect(outcome).rejects.toBe(last);
    expect(attempt).toHaveBeenCalledTimes(3);
  });

  it('waits out a Retry-After shorter than the cap before sending again', async () => {
    vi.useFakeTimers();
    const attempt = attempts(refused(503, 50));
    const outcome = withRetry(attempt, policy, { idempotent: false, deadline: deadline() });
    await vi.advanceTimersByTimeAsync(40);
    expect(attempt).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(attempt).toHaveBeenCalledTimes(2);
    await expect(outcome).resolves.toBe('ok');
  });

  it('fails at once, after one attempt, when Retry-After exceeds maxRetryAfterMs', async () => {
    const tooLong = refused(429, 5_000);
    const attempt = attempts(tooLong);
    const outcome = withRetry(attempt, policy, { idempotent: true, deadline: deadline() });
    await expect(outcome).rejects.toBe(tooLong);
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('fails at once when Retry-After is longer than the time left before the deadline', async () => {
    const tooLong = refused(503, 500);
    const attempt = attempts(tooLong);
    const retryPolicy = { ...policy, maxRetryAfterMs: 10_000 };
    const outcome = withRetry(attempt, retryPolicy, {
      idempotent: true,
      deadline: deadline(undefined, 100),
    });
    await expect(outcome).rejects.toBe(tooLong);
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('counts the time already spent when comparing Retry-After with the deadline', async () => {
    vi.useFakeTimers();
    const attempt = vi.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 80));
      throw refused(503, 50);
    });
    const outcome = withRetry(attempt, policy, {
      idempotent: true,
      deadline: deadline(undefined, 100),
    }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(200);
    // 20 ms are left when the server asks for 50: the call fails with the server's answer.
    expect(await outcome).toBeInstanceOf(HttpStatusError);
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it("stops during a backoff when the deadline's signal aborts, rejecting with its reason", async () => {
    vi.useFakeTimers();
    const caller = new AbortController();
    const slow = { ...policy, minDelayMs: 60_000, maxDelayMs: 60_000 };
    const attempt = attempts(refused(503), refused(503));
    const outcome = withRetry(attempt, slow, {
      idempotent: true,
      deadline: deadline(caller.signal, 600_000),
    }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10);
    expect(attempt).toHaveBeenCalledTimes(1);
    const reason = new Error('user gave up');
    caller.abort(reason);
    const error = await outcome;
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).cause).toBe(reason);
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('never sends a non-idempotent request again once the server may have seen it', async () => {
    const reset = new TransportError('reset', { retryable: true, requestSent: true });
    const attempt = attempts(reset);
    const outcome = withRetry(attempt, policy, { idempotent: false, deadline: deadline() });
    await expect(outcome).rejects.toBe(reset);
    expect(attempt).toHaveBeenCalledTimes(1);
  });

  it('sends a non-idempotent request again when the connection was refused', async () => {
    const attempt = attempts(
      new TransportError('refused', { retryable: true, requestSent: false }),
    );
    const result = await withRetry(attempt, policy, { idempotent: false, deadline: deadline() });
    expect(result).toBe('ok');
    expect(attempt).toHaveBeenCalledTimes(2);
  });
});
