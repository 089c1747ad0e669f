import { describe, expect, it } from 'vitest';
import { onePerCall, settle, typedError, usageError } from './call-boundary.ts';
import {
  InternalError,
  isMcpError,
  JsonRpcError,
  type McpError,
  StreamTruncatedError,
  TimeoutError,
} from './errors.ts';

describe('settle: what an error says about its call', () => {
  it('settles a call: retryable only when transient and safe to send again', () => {
    const settled = (error: McpError, mayHaveRun: boolean, idempotent: boolean) =>
      settle(error, { mayHaveRun, idempotent }) as McpError;
    expect(settled(new TimeoutError(1), true, false)).toMatchObject({
      mayHaveRun: true,
      retryable: false,
    });
    expect(settled(new TimeoutError(1), true, true)).toMatchObject({ retryable: true });
    expect(settled(new TimeoutError(1), false, false)).toMatchObject({ retryable: true });
    // An error that knows the call ran keeps saying so, whatever the call's record says.
    expect(settled(new StreamTruncatedError(), false, false)).toMatchObject({
      mayHaveRun: true,
      retryable: false,
    });
    // Not transient: never retryable, even when safe.
    expect(settled(new JsonRpcError(-32602, 'x'), false, true)).toMatchObject({ retryable: false });
    const plain = new Error('x');
    expect(settle(plain, { mayHaveRun: true, idempotent: false })).toBe(plain);
  });

  it('gives each call ended by one failure a copy of its own to settle', () => {
    const shared = new TimeoutError(1, { url: 'stdio:server' });
    const first = settle(onePerCall(shared), { mayHaveRun: true, idempotent: false });
    const second = onePerCall(shared);
    expect(first).toMatchObject({ retryable: false, mayHaveRun: true });
    expect(second).toBeInstanceOf(TimeoutError);
    expect(second).toMatchObject({ retryable: true, code: 'TIMEOUT' });
    expect([(second as Error).message, (second as Error).stack]).toEqual([
      shared.message,
      shared.stack,
    ]);
    expect(settle(second, { mayHaveRun: true, idempotent: true })).toMatchObject({
      retryable: true,
    });
  });
});

describe('typedError: what may leave a public method', () => {
  it('passes toolwire errors and TypeErrors the caller caused through as they are', () => {
    const timeout = new TimeoutError(100);
    expect(typedError(timeout, {})).toBe(timeout);
    const misuse = usageError('the handle belongs to another client');
    expect(typedError(misuse, {})).toBe(misuse);
  });

  it('turns anything else into an InternalError carrying it, with the context', () => {
    const bug = new TypeError('Class constructor Ajv2020 cannot be invoked without new');
    const typed = typedError(bug, { url: 'http://x/mcp', method: 'tools/call', tool: 'add' });
    expect(typed).toBeInstanceOf(InternalError);
    expect(isMcpError(typed)).toBe(true);
    expect(typed).toMatchObject({ code: 'INTERNAL', cause: bug, tool: 'add' });
    expect((typed as Error).message).toContain('TypeError: Class constructor Ajv2020');
    expect(typedError('a string thrown', {})).toBeInstanceOf(InternalError);
  });
});
