/**
 * gRPC failures in the client's error tree. A status the server sent is read here (its details,
 * its push-back) and mapped with every other wire code in wire-codes.ts. Failures of the client's
 * own side (a refused connection, a reset, a message over the size limit) are transport errors
 * that say whether the server can have seen the call.
 */
import { toJson } from '@bufbuild/protobuf';
import { StructSchema } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import type { Deadline } from '../../../core/deadline.ts';
import {
  type ErrorContext,
  isMcpError,
  type McpError,
  ResponseTooLargeError,
  TimeoutError,
  TransportError,
} from '../../../core/errors.ts';
import { fromGrpcStatus } from '../../../core/wire-codes.ts';
import { errorCode, neverSent } from '../../../wire/transport/http.ts';
import { ErrorInfoSchema } from './gen/google/rpc/error_details_pb.ts';

export interface StatusContext {
  where: ErrorContext & { url: string };
  deadline: Deadline;
  /** The deadline the call carried on the wire (`grpc-timeout`). */
  timeoutMs: number;
  /** The largest message the client reads. */
  maxResponseBytes: number;
}

export function isUnimplemented(error: unknown): boolean {
  return error instanceof ConnectError && error.code === Code.Unimplemented;
}

export function fromGrpcError(error: unknown, context: StatusContext): McpError {
  const { where, deadline } = context;
  // The call's own deadline or the caller's abort: its reason is already the error to throw.
  if (deadline.aborted) return deadline.reason as McpError;
  // Already the client's own (the gate refusing credentials, say).
  if (isMcpError(error)) return error;
  const status = ConnectError.from(error);
  if (!status.isWireError) return clientSide(status, context);
  return fromGrpcStatus(
    {
      code: status.code,
      message: status.rawMessage,
      data: dataOf(status),
      pushbackMs: pushbackOf(status),
    },
    { where, timeoutMs: context.timeoutMs, cause: status },
  );
}

/** What went wrong on the client's side of the call, or on the connection. */
function clientSide(status: ConnectError, context: StatusContext): McpError {
  const { where } = context;
  switch (status.code) {
    case Code.DeadlineExceeded:
      return new TimeoutError(context.timeoutMs, { ...where, cause: status });
    case Code.ResourceExhausted:
      return new ResponseTooLargeError('body', context.maxResponseBytes, {
        ...where,
        cause: status,
      });
  }
  // HTTP/2's REFUSED_STREAM guarantees the server did not process the stream.
  if (status.code === Code.Unavailable && status.rawMessage.includes('REFUSED_STREAM')) {
    return new TransportError(`connection failed (${status.rawMessage})`, {
      ...where,
      cause: status,
      retryable: true,
      requestSent: false,
    });
  }
  // A Node error underneath (refused, reset, unreachable) says whether the call went out.
  const code = errorCode(status);
  return new TransportError(`connection failed (${code || status.rawMessage})`, {
    ...where,
    cause: status,
    retryable: true,
    requestSent: !neverSent(status),
  });
}

/** The details the server attached: a Struct (the HTTP binding's `data`), else an ErrorInfo. */
function dataOf(status: ConnectError): unknown {
  const struct = status.findDetails(StructSchema)[0];
  if (struct) return toJson(StructSchema, struct);
  const info = status.findDetails(ErrorInfoSchema)[0];
  if (info) return { reason: info.reason, domain: info.domain, metadata: { ...info.metadata } };
  return undefined;
}

function pushbackOf(status: ConnectError): number | undefined {
  const value = status.metadata.get('grpc-retry-pushback-ms');
  if (value === null || !/^-?\d+$/.test(value.trim())) return undefined;
  return Number(value);
}
