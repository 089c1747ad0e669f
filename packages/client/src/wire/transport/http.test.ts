import { errors as undiciErrors } from 'undici';
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../core/errors.ts';
import { excerpt, mediaType, parseRetryAfter, transportError } from './http.ts';

const ENDPOINT = 'http://127.0.0.1:9/mcp';

function withCode(message: string, code: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), { code });
}

describe('parseRetryAfter', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

  it('reads delta-seconds as milliseconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP-date in the future as the time left until it', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', now)).toBe(30_000);
  });

  it('reads an HTTP-date in the past as no wait at all', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
  });

  it('ignores a value that is not a date or a number', () => {
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
  });

  it('ignores values that are neither delta-seconds nor an HTTP-date, even ones Date.parse accepts', () => {
    // RFC 9110: Retry-After = HTTP-date / delay-seconds. V8 reads these as dates in 2001 or 3000.
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('in 3000', now)).toBeUndefined();
  });

  it('returns undefined when there is no header', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('mediaType', () => {
  it('drops parameters and lower-cases the type', () => {
    expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaType(' text/event-stream ')).toBe('text/event-stream');
  });

  it('returns an empty string for a missing or empty header', () => {
    expect(mediaType(undefined)).toBe('');
    expect(mediaType('')).toBe('');
  });
});

describe('excerpt', () => {
  it('keeps a short text as it is', () => {
    const text = 'x'.repeat(200);
    expect(excerpt(text)).toBe(text);
  });

  it('cuts a long text to its first 200 characters and an ellipsis', () => {
    const text = `${'a'.repeat(200)}${'b'.repeat(50)}`;
    expect(excerpt(text)).toBe(`${'a'.repeat(200)}…`);
  });
});

describe('transportError', () => {
  it('marks a refused connection as not sent and retryable', () => {
    const cause = withCode('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED');
    const error = transportError(cause, ENDPOINT);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({
      code: 'TRANSPORT',
      requestSent: false,
      retryable: true,
      url: ENDPOINT,
    });
    expect(error.cause).toBe(cause);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('marks a reset connection as sent', () => {
    const error = transportError(withCode('read ECONNRESET', 'ECONNRESET'), ENDPOINT);
    expect(error).toMatchObject({ requestSent: true, retryable: true });
  });

  it("marks undici's SocketError (UND_ERR_SOCKET) as sent", () => {
    const error = transportError(new undiciErrors.SocketError('other side closed'), ENDPOINT);
    expect(error).toMatchObject({ requestSent: true, retryable: true });
    expect(error.message).toContain('UND_ERR_SOCKET');
  });

  it('finds the code in the cause chain', () => {
    const root = withCode('connect ECONNREFUSED', 'ECONNREFUSED');
    const wrapped = new TypeError('fetch failed', { cause: new Error('middle', { cause: root }) });
    const error = transportError(wrapped, ENDPOINT);
    expect(error.requestSent).toBe(false);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('falls back to the message when no code is found, and counts the request as sent', () => {
    const error = transportError(new Error('something broke'), ENDPOINT);
    expect(error.requestSent).toBe(true);
    expect(error.message).toContain('something broke');
  });
});
