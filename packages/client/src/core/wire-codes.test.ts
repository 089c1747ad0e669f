import { describe, expect, it } from 'vitest';
import {
  GrpcStatusError,
  HandleExpiredError,
  HeaderMismatchError,
  JsonRpcError,
  MissingCapabilityError,
  ResourceNotFoundError,
  TimeoutError,
  TransportError,
  UrlElicitationRequiredError,
} from './errors.ts';
import {
  aboutDeferred,
  fromGrpcStatus,
  fromJsonRpcError,
  GrpcCode,
  RpcCode,
  refusedGrpcCode,
  refusedRpcCode,
  refusedStatus,
  transientStatus,
} from './wire-codes.ts';

const where = { url: 'http://server.test/mcp', method: 'tools/call' };

describe('JSON-RPC codes', () => {
  it('become the class of their meaning', () => {
    const of = (code: number, method = 'tools/call') =>
      fromJsonRpcError({ code, message: 'm' }, { ...where, method });
    expect(of(RpcCode.headerMismatch)).toBeInstanceOf(HeaderMismatchError);
    expect(of(RpcCode.missingClientCapability)).toBeInstanceOf(MissingCapabilityError);
    expect(of(RpcCode.urlElicitationRequired)).toBeInstanceOf(UrlElicitationRequiredError);
    expect(of(RpcCode.resourceNotFound, 'resources/read')).toBeInstanceOf(ResourceNotFoundError);
    expect(of(RpcCode.invalidParams, 'resources/read')).toBeInstanceOf(ResourceNotFoundError);
    const plain = of(RpcCode.invalidParams);
    expect(plain.constructor).toBe(JsonRpcError);
    expect(plain).toMatchObject({ rpcCode: -32602, family: 'refused' });
  });

  it('-32602 about deferred work is a HandleExpiredError, in every dialect', () => {
    const handle = { kind: 'promise', id: 'token-123456789' } as const;
    const invalid = new JsonRpcError(RpcCode.invalidParams, 'unknown token', where);
    const expired = aboutDeferred(invalid, handle, where);
    expect(expired).toBeInstanceOf(HandleExpiredError);
    expect(expired.cause).toBe(invalid);
    const other = new JsonRpcError(RpcCode.internalError, 'boom', where);
    expect(aboutDeferred(other, handle, where)).toBe(other);
    const broken = new TransportError('reset', where);
    expect(aboutDeferred(broken, handle, where)).toBe(broken);
  });

  it('the protocol refusals prove the request was not acted on; an internal error does not', () => {
    expect(refusedRpcCode(RpcCode.methodNotFound)).toBe(true);
    expect(refusedRpcCode(RpcCode.urlElicitationRequired)).toBe(true);
    expect(refusedRpcCode(RpcCode.internalError)).toBe(false);
    expect(refusedRpcCode(-32000)).toBe(false);
  });
});

describe('gRPC statuses', () => {
  const read = (code: number, pushbackMs?: number) =>
    fromGrpcStatus(
      { code, message: 'said', data: { a: 1 }, pushbackMs },
      { where, timeoutMs: 5_000, cause: undefined },
    );

  it('take the HTTP binding class of the same meaning', () => {
    expect(read(GrpcCode.invalidArgument)).toMatchObject({ rpcCode: -32602, data: { a: 1 } });
    expect(read(GrpcCode.notFound)).toMatchObject({ rpcCode: -32601 });
    expect(read(GrpcCode.internal)).toMatchObject({ rpcCode: -32603 });
    expect(read(GrpcCode.deadlineExceeded)).toBeInstanceOf(TimeoutError);
  });

  it('the rest are GrpcStatusErrors: retryable when the server pushes back, not when it refuses', () => {
    expect(read(GrpcCode.unavailable)).toMatchObject({
      grpcStatus: 'UNAVAILABLE',
      retryable: true,
    });
    expect(read(GrpcCode.resourceExhausted, 200)).toMatchObject({
      retryAfterMs: 200,
      retryable: true,
    });
    expect(read(GrpcCode.resourceExhausted, -1)).toMatchObject({ retryable: false });
    expect(read(GrpcCode.unauthenticated)).toMatchObject({ status: 401, retryable: false });
    expect(read(GrpcCode.permissionDenied)).toBeInstanceOf(GrpcStatusError);
    expect(refusedGrpcCode(GrpcCode.resourceExhausted)).toBe(true);
    expect(refusedGrpcCode(GrpcCode.unavailable)).toBe(false);
  });
});

describe('HTTP statuses', () => {
  it('408, 429, 502, 503 and 504 may pass; a 3xx, 4xx or 503 proves nothing ran', () => {
    expect([408, 429, 500, 502, 503, 504].map(transientStatus)).toEqual([
      true,
      true,
      false,
      true,
      true,
      true,
    ]);
    expect([302, 404, 500, 503].map(refusedStatus)).toEqual([true, true, false, true]);
  });
});
