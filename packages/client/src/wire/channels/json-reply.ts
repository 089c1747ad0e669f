/**
 * Reading a POST's answer when it is not an event stream, for every JSON-RPC dialect: a JSON body
 * holding our response (anything else in it is routed), a JSON-RPC error carried by an HTTP error
 * status, or a typed error saying what the server sent instead.
 */
import { ContentTypeError, MalformedMessageError } from '../../core/errors.ts';
import {
  classify,
  type Incoming,
  isObject,
  type JsonRpcRequest,
  type JsonRpcResponse,
  parseMessages,
} from '../../core/jsonrpc.ts';
import { transientStatus } from '../../core/wire-codes.ts';
import { excerpt, type HttpResponse, readText, statusError } from '../transport/http.ts';

export interface JsonReplyContext {
  url: string;
  tool?: string | undefined;
  maxResponseBytes: number;
  signal: AbortSignal;
  /** Where messages other than our response go (a 2025-03-26 batch may carry some). */
  route: (incoming: Incoming) => void;
}

export function readJsonReply(
  response: HttpResponse,
  request: JsonRpcRequest,
  context: JsonReplyContext,
): Promise<JsonRpcResponse> {
  return readText(response, context.maxResponseBytes, context.url, context.signal).then((text) =>
    replyIn(text, response, request, context),
  );
}

function replyIn(
  text: string,
  response: HttpResponse,
  request: JsonRpcRequest,
  context: JsonReplyContext,
): JsonRpcResponse {
  const where = { url: context.url, method: request.method, tool: context.tool };
  if (response.status < 200 || response.status >= 300) {
    // A transient status means "try again", even with a JSON-RPC error in its body: the retry
    // policy has it.
    const rpcError = transientStatus(response.status) ? undefined : errorResponse(text);
    if (rpcError) return rpcError;
    throw statusError(response, text, where);
  }
  if (response.mediaType !== 'application/json') {
    throw new ContentTypeError(response.mediaType, {
      ...where,
      status: response.status,
      bodyExcerpt: excerpt(text),
    });
  }
  const messages = parseMessages(text);
  if (typeof messages === 'string') {
    throw new MalformedMessageError(messages, { ...where, bodyExcerpt: excerpt(text) });
  }
  let answer: JsonRpcResponse | undefined;
  for (const incoming of messages) {
    if (incoming.kind === 'response' && incoming.message.id === request.id)
      answer = incoming.message;
    else context.route(incoming);
  }
  if (!answer) {
    throw new MalformedMessageError(`no response with id ${String(request.id)} in the body`, {
      ...where,
      bodyExcerpt: excerpt(text),
    });
  }
  return answer;
}

/**
 * A JSON-RPC error in an HTTP error body. Servers send these with `id: null`, or with no id at all
 * when they cannot tell which request they refuse (MiniMCP does): both are read as `id: null`.
 */
export function errorResponse(text: string): JsonRpcResponse | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || !('error' in value)) return undefined;
  const incoming = classify('id' in value ? value : { ...value, id: null });
  return typeof incoming !== 'string' && incoming.kind === 'response'
    ? incoming.message
    : undefined;
}
