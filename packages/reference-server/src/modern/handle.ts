/**
 * One 2026-07-28 POST, served statelessly: everything the request needs is in it. Refusals carry
 * the request's id and the HTTP status the transport asks for (400 for envelope and header
 * problems and missing capabilities, 404 for an unknown method).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createContext, type MessageSink, type ServerCore } from '../context.ts';
import { accepts, header, sendEmpty } from '../http-util.ts';
import {
  ErrorCode,
  errorMessage,
  isObject,
  type JsonObject,
  RpcError,
  type RpcIncoming,
  type RpcRequest,
  resultMessage,
} from '../jsonrpc.ts';
import { checkEnvelope, MODERN_VERSIONS, ModernCode, Refusal } from './envelope.ts';
import { checkStandardHeaders } from './headers.ts';
import { parseFilter } from './listen.ts';
import { decorate, modernMethods } from './methods.ts';
import { ModernReply } from './reply.ts';

/** How an endpoint serves modern traffic. */
export interface ModernEndpoint {
  /** True for the modern-only endpoint, which refuses `initialize` naming its versions. */
  readonly modernOnly: boolean;
  /** Whether answers may be SSE streams (progress, logs, subscriptions/listen). */
  readonly streams: boolean;
}

/** The versions an endpoint names in discover and in -32022: modern ones, then legacy ones. */
export function supportedVersions(core: ServerCore, endpoint: ModernEndpoint): string[] {
  return endpoint.modernOnly ? [...MODERN_VERSIONS] : [...MODERN_VERSIONS, ...core.versions];
}

/** The HTTP status for an error a handler raised. */
function statusOf(code: number): number {
  if (code === ErrorCode.MethodNotFound) return 404;
  const transport: number[] = Object.values(ModernCode);
  return transport.includes(code) ? 400 : 200;
}

/** Serves one modern message (never a batch: 2026-07-28 has none). */
export async function handleModern(
  core: ServerCore,
  endpoint: ModernEndpoint,
  req: IncomingMessage,
  res: ServerResponse,
  message: RpcIncoming,
): Promise<void> {
  if (message.kind === 'notification') {
    sendEmpty(res, 202);
    return;
  }
  const streams = endpoint.streams && accepts(header(req, 'accept'), 'text/event-stream');
  const reply = new ModernReply(res, streams);
  if (message.kind === 'response') {
    // Nothing asks the client anything in 2026-07-28, so there is nothing to respond to.
    reply.finish(
      400,
      errorMessage(
        message.id,
        ErrorCode.InvalidRequest,
        'Invalid Request: clients send no responses in 2026-07-28',
      ),
    );
    return;
  }
  try {
    await serve(core, endpoint, req, reply, message);
  } catch (error) {
    if (error instanceof Refusal) {
      reply.finish(error.status, errorMessage(message.id, error.code, error.message, error.data));
    } else if (error instanceof RpcError) {
      reply.finish(
        statusOf(error.code),
        errorMessage(message.id, error.code, error.message, error.data),
      );
    } else if (!reply.cancelled.aborted && !core.closing.aborted) {
      reply.finish(
        500,
        errorMessage(message.id, ErrorCode.InternalError, `Internal error: ${String(error)}`),
      );
    }
  }
}

async function serve(
  core: ServerCore,
  endpoint: ModernEndpoint,
  req: IncomingMessage,
  reply: ModernReply,
  request: RpcRequest,
): Promise<void> {
  const supported = supportedVersions(core, endpoint);
  if (request.method === 'initialize' && endpoint.modernOnly) {
    // Legacy clients cannot fall forward: naming the versions is all the help they can get.
    const params = isObject(request.params) ? request.params : {};
    throw new Refusal(
      400,
      ModernCode.UnsupportedProtocolVersion,
      `This endpoint speaks only MCP ${supported.join(', ')}; initialize is not part of it`,
      { supported, requested: String(params['protocolVersion'] ?? '') },
    );
  }
  const modern = checkEnvelope(req, request.params, supported);
  const params: JsonObject = isObject(request.params) ? request.params : {};
  checkStandardHeaders(req, request.method, params);
  if (request.method === 'subscriptions/listen') {
    const filter = parseFilter(params);
    if (!reply.stream()) {
      throw new Refusal(
        406,
        ErrorCode.InvalidRequest,
        'subscriptions/listen needs Accept: text/event-stream',
      );
    }
    core.listeners.open(request.id, filter, reply);
    return;
  }
  const method = modernMethods(supported).get(request.method);
  if (method === undefined) {
    throw new Refusal(404, ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
  }
  const signal = AbortSignal.any([reply.cancelled, core.closing]);
  const onCancel = () => {
    if (!core.closing.aborted) {
      core.cancelled.push({
        requestId: request.id,
        reason: 'the client closed the response stream',
      });
    }
  };
  reply.cancelled.addEventListener('abort', onCancel, { once: true });
  const sink: MessageSink = {
    get finished() {
      return reply.finished;
    },
    send: (message) => reply.send(message),
  };
  try {
    const ctx = createContext(core, request, undefined, sink, signal, modern);
    let result: unknown;
    try {
      result = await method(params, ctx, req);
    } catch (error) {
      // A cancelled request gets no answer at all, not even an error.
      if (signal.aborted) return;
      throw error;
    }
    if (!signal.aborted)
      reply.finish(200, resultMessage(request.id, decorate(request.method, result)));
  } finally {
    reply.cancelled.removeEventListener('abort', onCancel);
  }
}
