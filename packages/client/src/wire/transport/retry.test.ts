import { afterEach, describe, expect, it, vi } from 'vitest';
import { Deadline } from '../../core/deadline.ts';
import {
  AbortedError,
  AuthorizationError,
  HttpStatusError,
  MalformedMessageError,
  StreamTruncatedError,
  TimeoutError,
  TransportError,
} from '../../core/errors.ts';
import type { RetryPolicy } from '../../core/types.ts';
import { mayHaveActed, mayResend, Retry, withRetry } from './retry.ts';

const policy: RetryPolicy = {
  retries: 3,
  minDelayMs: 1,
  maxDelayMs: 2,
  maxRetryAfterMs: 1_000,
  maxResumes: 10,
};
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

describe('mayHaveActed', () => {
  it.each([
    {
      what: 'a refused connection',
      error: new TransportError('x', { requestSent: false }),
      acted: false,
    },
    {
      what: 'a reset connection',
      error: new TransportError('x', { requestSent: true }),
      acted: true,
    },
    { what: 'HTTP 429', error: refused(429), acted: false },
    { what: 'HTTP 503', error: refused(503), acted: false },
    { what: 'HTTP 400', error: refused(400), acted: false },
    { what: 'HTTP 307', error: refused(307), acted: false },
    { what: 'HTTP 500', error: refused(500), acted: true },
    { what: 'HTTP 502', error: refused(502), acted: true },
    { what: 'a malformed answer', error: new MalformedMessageError('x'), acted: true },
    { what: 'a timeout mid-request', error: new TimeoutError(10), acted: true },
    { what: 'an internal failure marked acted: false', error: { acted: false }, acted: false },
    {
      what: 'credentials refused for good',
      error: new AuthorizationError('rejected', 'refused'),
      acted: false,
    },
  ])('$what: $acted', ({ error, acted }) => {
    expect(mayHaveActed(error)).toBe(acted);
  });
});

describe('mayResend', () => {
  it.each([
    { mayHaveRun: false, idempotent: false, resend: true },
    { mayHaveRun: false, idempotent: true, resend: true },
    { mayHaveRun: true, idempotent: false, resend: false },
    { mayHaveRun: true, idempotent: true, resend: true },
  ])(
    'sends a transient failure again when mayHaveRun=$mayHaveRun and idempotent=$idempotent: $resend',
    ({ mayHaveRun, idempotent, resend }) => {
      for (const error of [
        new TransportError('x', { retryable: true }),
        refused(503),
        refused(502),
        new StreamTruncatedError(),
      ]) {
        expect(mayResend(error, idempotent, mayHaveRun)).toBe(resend);
      }
    },
  );

  it.each([500, 400, 404, 401])('never resends HTTP %i', (status) => {
    expect(mayResend(refused(status), true, false)).toBe(false);
  });

  it('never resends a toolwire error marked not retryable', () => {
    const transport = new TransportError('x', { retryable: false, requestSent: false });
    expect(mayResend(transport, true, false)).toBe(false);
    expect(mayResend(new HttpStatusError(503, { retryable: false }), true, false)).toBe(false);
  });

  it('never resends a timeout or a malformed answer', () => {
    expect(mayResend(new TimeoutError(10), true, false)).toBe(false);
    expect(mayResend(new MalformedMessageError('x'), true, false)).toBe(false);
  });

  it('never resends an error that is not a toolwire error', () => {
    const lookalike = Object.assign(new Error('x'), { retryable: true, code: 'ECONNREFUSED' });
    expect(mayResend(lookalike, true, false)).toBe(false);
    expect(mayResend('ECONNREFUSED', true, false)).toBe(false);
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

  it('a request that may have run once is never sent again, even after a later refusal', async () => {
    // A 502 (the gateway may have passed it on), then a 503 (refused): the call may have run.
    const attempt = attempts(refused(502), refused(503));
    const d = deadline();
    d.mayHaveRun = false;
    const outcome = withRetry(attempt, policy, { idempotent: false, deadline: d });
    await expect(outcome).rejects.toMatchObject({ status: 502 });
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(d.mayHaveRun).toBe(true);
  });

  it('records on the deadline that a request may have run, and takes it back on a refusal', async () => {
    const refusedFirst = deadline();
    await withRetry(attempts(refused(503)), policy, { idempotent: false, deadline: refusedFirst });
    // The attempt that succeeded reached the server.
    expect(refusedFirst.mayHaveRun).toBe(true);
    const neverReached = deadline();
    const outcome = withRetry(
      attempts(refused(503), refused(503), refused(503), refused(503)),
      policy,
      { idempotent: false, deadline: neverReached },
    );
    await expect(outcome).rejects.toMatchObject({ status: 503 });
    expect(neverReached.mayHaveRun).toBe(false);
  });

  it('takes the verdict back when the result shows the server refused the request', async () => {
    const d = deadline();
    await withRetry(async () => 'refused', policy, {
      idempotent: false,
      deadline: d,
      refused: (result) => result === 'refused',
    });
    expect(d.mayHaveRun).toBe(false);
  });
});

describe('Retry', () => {
  const exited = () =>
    new TransportError('the server exited', { requestSent: false, retryable: true });

  it('reads the answer with `then` as the transport settles it, on the same promise', async () => {
    const d = deadline();
    const answer = new Retry(attempts(), policy, { idempotent: false, deadline: d }, (text) =>
      text.toUpperCase(),
    );
    expect(d.mayHaveRun).toBe(true);
    answer.resolve('ok');
    await expect(answer.promise).resolves.toBe('OK');
  });

  it('hands a failure to the retry rules: sent again when allowed, the answer read all the same', async () => {
    const again = attempts();
    const answer = new Retry(again, policy, { idempotent: false, deadline: deadline() }, (text) =>
      text.toUpperCase(),
    );
    answer.reject(exited());
    await expect(answer.promise).resolves.toBe('OK');
    expect(again).toHaveBeenCalledTimes(1);
  });

  it('never sends again what the server may have seen, and does not read a failure', async () => {
    const again = attempts();
    const read = vi.fn((text: string) => text);
    const answer = new Retry(again, policy, { idempotent: false, deadline: deadline() }, read);
    answer.reject(new TransportError('reset', { requestSent: true, retryable: true }));
    await expect(answer.promise).rejects.toMatchObject({ message: 'reset' });
    expect(again).not.toHaveBeenCalled();
    expect(read).not.toHaveBeenCalled();
  });

  it('rejects with what `then` throws, and takes the verdict back on a refused answer', async () => {
    const d = deadline();
    const answer = new Retry(
      attempts(),
      policy,
      { idempotent: false, deadline: d, refused: (text) => text === 'refused' },
      () => {
        throw new MalformedMessageError('unreadable');
      },
    );
    answer.resolve('refused');
    await expect(answer.promise).rejects.toBeInstanceOf(MalformedMessageError);
    expect(d.mayHaveRun).toBe(false);
  });
});
