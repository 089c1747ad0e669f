import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  ClientClosedError,
  ContentTypeError,
  HttpStatusError,
  InputRequiredError,
  InternalError,
  isMcpError,
  JsonRpcError,
  MalformedMessageError,
  McpError,
  OutputValidationError,
  ResponseTooLargeError,
  ServerExitedError,
  SessionExpiredError,
  StoreUnavailableError,
  StreamTruncatedError,
  TimeoutError,
  ToolNotFoundError,
  TransportError,
  UnsupportedVersionError,
} from './errors.ts';

const every: Array<[string, McpError]> = [
  ['TRANSPORT', new TransportError('refused')],
  ['SERVER_EXITED', new ServerExitedError({ code: 1, signal: null, stderr: [] })],
  ['HTTP_STATUS', new HttpStatusError(503, {})],
  ['CONTENT_TYPE', new ContentTypeError('text/html')],
  ['RESPONSE_TOO_LARGE', new ResponseTooLargeError('body', 10)],
  ['STREAM_TRUNCATED', new StreamTruncatedError()],
  ['MALFORMED_MESSAGE', new MalformedMessageError('bad')],
  ['JSON_RPC', new JsonRpcError(-32603, 'boom')],
  ['UNSUPPORTED_VERSION', new UnsupportedVersionError('1999-01-01', ['2025-11-25'])],
  ['OUTPUT_VALIDATION', new OutputValidationError({}, ['/ must be object'])],
  ['TOOL_NOT_FOUND', new ToolNotFoundError(['add'])],
  ['SESSION_EXPIRED', new SessionExpiredError()],
  ['INPUT_REQUIRED', new InputRequiredError(['elicitation/create'])],
  ['TIMEOUT', new TimeoutError(100)],
  ['INTERNAL', new InternalError(new Error('bug'))],
  ['ABORTED', new AbortedError()],
  ['CLIENT_CLOSED', new ClientClosedError()],
  ['STORE_UNAVAILABLE', new StoreUnavailableError('verdicts.get', 'timed out after 250 ms')],
];

describe('error classes', () => {
  it.each(every)(
    '%s is the code of its class, which is an Error named after the class',
    (code, error) => {
      expect(error.code).toBe(code);
      expect(error).toBeInstanceOf(McpError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(error.constructor.name);
    },
  );

  it('marks only timeouts, expired sessions, unavailable stores, cut streams and exits transient by default', () => {
    // Transport and status errors are always built with an explicit verdict (see http.ts).
    const retryable = every
      .filter(([code, error]) => error.retryable && code !== 'TRANSPORT' && code !== 'HTTP_STATUS')
      .map(([code]) => code);
    expect(retryable.sort()).toEqual([
      'SERVER_EXITED',
      'SESSION_EXPIRED',
      'STORE_UNAVAILABLE',
      'STREAM_TRUNCATED',
      'TIMEOUT',
    ]);
  });

  it('says the call may have run whenever the server answered something unusable', () => {
    const ran = every.filter(([, error]) => error.mayHaveRun).map(([code]) => code);
    expect(ran.sort()).toEqual([
      'CONTENT_TYPE',
      'MALFORMED_MESSAGE',
      'OUTPUT_VALIDATION',
      'RESPONSE_TOO_LARGE',
      'STREAM_TRUNCATED',
    ]);
  });

  it('tells a server process that exited from a connection that broke, both transport failures', () => {
    const exited = new ServerExitedError({ code: 70, signal: null, stderr: ['boom'] });
    expect(exited).toMatchObject({ code: 'SERVER_EXITED', family: 'transport', exitCode: 70 });
    expect(exited).toBeInstanceOf(TransportError);
    expect(new TransportError('reset')).toMatchObject({ code: 'TRANSPORT', family: 'transport' });
  });

  it('lets the caller override the retryable default', () => {
    expect(new TimeoutError(100, { retryable: false }).retryable).toBe(false);
    expect(new SessionExpiredError({ retryable: false }).retryable).toBe(false);
    expect(new HttpStatusError(503, { retryable: true }).retryable).toBe(true);
  });

  it('ends the message with the method, the tool and the URL', () => {
    const error = new JsonRpcError(-32602, 'bad params', {
      method: 'tools/call',
      tool: 'add',
      url: 'http://localhost/mcp',
    });
    expect(error.message).toBe(
      'server error -32602 "bad params": tools/call (add) http://localhost/mcp',
    );
    expect(error).toMatchObject({ method: 'tools/call', tool: 'add', url: 'http://localhost/mcp' });
  });

  it('leaves the message bare when there is no context', () => {
    expect(new StreamTruncatedError().message).toBe(
      'event stream ended before the response arrived',
    );
  });

  it('keeps the cause', () => {
    const cause = new Error('socket hang up');
    expect(new TransportError('reset', { cause }).cause).toBe(cause);
    expect(new AbortedError({ cause: 'user' }).cause).toBe('user');
  });

  it('records the HTTP status and the Retry-After of a status error', () => {
    const error = new HttpStatusError(429, { retryAfterMs: 2_000, url: 'http://x/' });
    expect(error).toMatchObject({ status: 429, retryAfterMs: 2_000 });
    expect(error.message).toBe('server answered HTTP 429: http://x/');
  });

  it('counts a transport error as sent unless told otherwise', () => {
    expect(new TransportError('reset').requestSent).toBe(true);
    expect(new TransportError('refused', { requestSent: false }).requestSent).toBe(false);
  });
});

describe('isMcpError', () => {
  it.each(every)('is true for %s', (_code, error) => {
    expect(isMcpError(error)).toBe(true);
  });

  it('is true for an error branded by another copy of the package', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('toolwire.error')]: true });
    expect(isMcpError(foreign)).toBe(true);
  });

  it('is false for plain errors and other values', () => {
    expect(isMcpError(new Error('x'))).toBe(false);
    expect(isMcpError({ code: 'TIMEOUT', retryable: true })).toBe(false);
    expect(isMcpError(null)).toBe(false);
    expect(isMcpError('TIMEOUT')).toBe(false);
  });
});
