/**
 * The HTTP binding's shapes in the gRPC binding's messages, so that one tool set serves both:
 * a tool definition as a `Tool`, a result with `_meta` as a `ToolResponse` (the ISO 8601 times as
 * epoch milliseconds, what the enum and the added fields do not hold in `extra`), a JSON-RPC
 * error as the status §5.5 maps it to, with its `data` as a `google.protobuf.Struct` detail.
 */
import { fromJson, type MessageInitShape, type JsonObject as StructJson } from '@bufbuild/protobuf';
import { StructSchema } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import { ErrorCode, isObject, type JsonObject, type RpcError } from '../../jsonrpc.ts';
import { ErrorInfoSchema } from './gen/google/rpc/error_details_pb.ts';
import {
  type ResponseMetaSchema,
  ResponseType,
  type ToolResponseSchema,
  type ToolSchema,
} from './gen/mcplite/mcplite_pb.ts';
import type { GrpcFailure } from './types.ts';

type ToolInit = MessageInitShape<typeof ToolSchema>;
type ResponseInit = MessageInitShape<typeof ToolResponseSchema>;
type MetaInit = MessageInitShape<typeof ResponseMetaSchema>;

const RESPONSE_TYPES: Record<string, number> = {
  answer: ResponseType.ANSWER,
  promise: ResponseType.PROMISE,
  elicitation: ResponseType.ELICITATION,
  failure: ResponseType.FAILURE,
  'request-for-more-resource': ResponseType.REQUEST_FOR_MORE_RESOURCE,
};

/** The seed's JSON-RPC codes (§4.4) as the statuses of §5.5. */
const STATUS_OF: Record<number, Code> = {
  [ErrorCode.ParseError]: Code.InvalidArgument,
  [ErrorCode.InvalidRequest]: Code.InvalidArgument,
  [ErrorCode.InvalidParams]: Code.InvalidArgument,
  [ErrorCode.MethodNotFound]: Code.NotFound,
  [ErrorCode.InternalError]: Code.Internal,
};

const CODES: Record<string, Code> = {
  CANCELLED: Code.Canceled,
  UNKNOWN: Code.Unknown,
  INVALID_ARGUMENT: Code.InvalidArgument,
  DEADLINE_EXCEEDED: Code.DeadlineExceeded,
  NOT_FOUND: Code.NotFound,
  ALREADY_EXISTS: Code.AlreadyExists,
  PERMISSION_DENIED: Code.PermissionDenied,
  RESOURCE_EXHAUSTED: Code.ResourceExhausted,
  FAILED_PRECONDITION: Code.FailedPrecondition,
  ABORTED: Code.Aborted,
  OUT_OF_RANGE: Code.OutOfRange,
  UNIMPLEMENTED: Code.Unimplemented,
  INTERNAL: Code.Internal,
  UNAVAILABLE: Code.Unavailable,
  DATA_LOSS: Code.DataLoss,
  UNAUTHENTICATED: Code.Unauthenticated,
};

/** A status's name, as {@link GrpcCall.status} reports it. */
export function statusName(code: Code): string {
  return Object.entries(CODES).find(([, value]) => value === code)?.[0] ?? `status ${code}`;
}

export function toTool(definition: JsonObject): ToolInit {
  const type = definition['@type'];
  const description = definition['description'];
  return {
    name: String(definition['name']),
    type: typeof type === 'string' ? type : '',
    description: typeof description === 'string' ? description : '',
    inputSchema: definition['inputSchema'] as StructJson,
  };
}

/**
 * A result as a `ToolResponse`. An elicitation's question goes where the binding keeps it
 * (`meta.elicitation`); `responseType` replaces the result's own when given (the fault).
 */
export function toResponse(result: JsonObject, responseType?: number): ResponseInit {
  const { _meta: meta, elicitation, ...rest } = result;
  const response: ResponseInit = { result: rest as StructJson };
  if (isObject(meta)) {
    response.meta = toMeta(meta, isObject(elicitation) ? elicitation : undefined);
  } else if (elicitation !== undefined) {
    response.result = { ...rest, elicitation } as StructJson;
  }
  if (responseType !== undefined) {
    response.meta = { ...response.meta, responseType: responseType as ResponseType };
  }
  return response;
}

function toMeta(meta: JsonObject, elicitation: JsonObject | undefined): MetaInit {
  const {
    response_type: type,
    promise_token: token,
    timestamp,
    processing_time_ms: processing,
    estimated_completion: due,
    server_version: version,
    ...extra
  } = meta;
  const init: MetaInit = {
    responseType: (RESPONSE_TYPES[String(type)] ?? ResponseType.ANSWER) as ResponseType,
  };
  if (typeof token === 'string') init.promiseToken = token;
  const at = Date.parse(String(timestamp));
  if (!Number.isNaN(at)) init.timestamp = BigInt(at);
  if (typeof processing === 'number') init.processingTimeMs = processing;
  const dueAt = Date.parse(String(due));
  if (!Number.isNaN(dueAt)) init.estimatedCompletion = BigInt(dueAt);
  if (typeof version === 'string') init.serverVersion = version;
  if (elicitation) init.elicitation = elicitation as StructJson;
  if (Object.keys(extra).length > 0) init.extra = extra as StructJson;
  return init;
}

/** A JSON-RPC error of the tool set as a gRPC status; its `data` rides as a Struct detail. */
export function toStatus(error: RpcError): ConnectError {
  const details = isObject(error.data)
    ? [{ desc: StructSchema, value: fromJson(StructSchema, error.data as StructJson) }]
    : [];
  return new ConnectError(
    error.message,
    STATUS_OF[error.code] ?? Code.Internal,
    undefined,
    details,
  );
}

/** The status a fault answers with. */
export function faultStatus(failure: GrpcFailure): ConnectError {
  const trailers: Record<string, string> = {};
  if (failure.pushbackMs !== undefined) {
    trailers['grpc-retry-pushback-ms'] = String(failure.pushbackMs);
  }
  const details = failure.errorInfo
    ? [{ desc: ErrorInfoSchema, value: { metadata: {}, ...failure.errorInfo } }]
    : [];
  return new ConnectError(
    failure.message ?? failure.code,
    CODES[failure.code] ?? Code.Unknown,
    trailers,
    details,
  );
}
