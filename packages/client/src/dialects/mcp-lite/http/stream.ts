/**
 * An MCP-lite answer as an event stream (asked for with `Accept: text/event-stream`). Its events
 * are named and carry no JSON-RPC: `message` is a partial (`{"partial": ...}`), `done` the end
 * with the final `_meta` (and, from some servers, the complete result), `error` the server's
 * error, `heartbeat` a sign of life that keeps the call's deadline from running out.
 */
import type { Deadline } from '../../../core/deadline.ts';
import {
  type ErrorContext,
  JsonRpcError,
  MalformedMessageError,
  type McpError,
  StreamTruncatedError,
} from '../../../core/errors.ts';
import { isObject, type JsonObject } from '../../../core/jsonrpc.ts';
import { fromJsonRpcError, RpcCode } from '../../../core/wire-codes.ts';
import type { HttpResponse } from '../../../wire/transport/http.ts';
import { readEvents } from '../../../wire/transport/sse.ts';
import type { Partials } from '../partials.ts';

export interface StreamContext {
  where: ErrorContext & { url: string };
  maxEventSize: number;
  deadline: Deadline;
  partials: Partials;
}

/** The result the stream adds up to, or the server's error. */
export type Streamed = { kind: 'result'; result: JsonObject } | { kind: 'error'; error: McpError };

export async function readStream(
  response: HttpResponse,
  context: StreamContext,
): Promise<Streamed> {
  const { where, deadline, partials } = context;
  for await (const event of readEvents(response.body as AsyncIterable<Buffer>, {
    url: where.url,
    maxEventSize: context.maxEventSize,
    signal: deadline.signal,
    position: { lastEventId: undefined, retryMs: undefined },
  })) {
    switch (event.event ?? 'message') {
      case 'heartbeat':
        partials.life();
        break;
      case 'message':
        partials.add(parse(event.data, where));
        break;
      case 'done': {
        const data = parse(event.data, where);
        return { kind: 'result', result: partials.result(isObject(data) ? data : {}) };
      }
      case 'error':
        return { kind: 'error', error: streamError(event.data, where) };
    }
  }
  throw new StreamTruncatedError(where);
}

function parse(data: string, where: ErrorContext): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new MalformedMessageError('invalid JSON in an MCP-lite event', {
      ...where,
      bodyExcerpt: data.slice(0, 200),
    });
  }
}

/**
 * The server's error: a JSON-RPC error object, bare or under `error`; anything else is kept as
 * the message of an internal error.
 */
function streamError(data: string, where: ErrorContext): McpError {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    value = data;
  }
  const error = isObject(value) && isObject(value['error']) ? value['error'] : value;
  if (
    isObject(error) &&
    typeof error['code'] === 'number' &&
    typeof error['message'] === 'string'
  ) {
    return fromJsonRpcError(
      { code: error['code'], message: error['message'], data: error['data'] },
      where,
    );
  }
  const message =
    isObject(error) && typeof error['message'] === 'string' ? error['message'] : String(data);
  return new JsonRpcError(RpcCode.internalError, message || 'stream error', {
    ...where,
    data: value,
  });
}
