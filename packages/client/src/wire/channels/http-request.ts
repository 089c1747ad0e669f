/**
 * The one place an HTTP request for a channel is built: the caller's headers, what the binding's
 * envelope adds (a session id, the version header, mirrored fields), Accept, and a JSON body with
 * its Content-Type, sent through the client's dispatcher, where the credentials gate and the size
 * limits of transport/http.ts apply. The retry policy around it is transport/retry.ts, applied by
 * each channel to the whole exchange.
 */
import type { Dispatcher } from 'undici';
import type { JsonRpcMessage } from '../../core/jsonrpc.ts';
import { type HttpRequest, type HttpResponse, send } from '../transport/http.ts';

/** Where a channel's requests go, and the headers the caller gave for every one. */
export interface HttpTarget {
  url: string;
  dispatcher: Dispatcher;
  headers: Record<string, string>;
}

/** A POST's response may be a JSON body or an event stream. */
export const ACCEPT_RESPONSE = 'application/json, text/event-stream';
/** A GET opens (or resumes) an event stream. */
export const ACCEPT_STREAM = 'text/event-stream';

export interface ChannelRequest {
  method: 'POST' | 'GET' | 'DELETE';
  accept: string;
  /** `Mcp-Session-Id`, for a binding that keeps a session. */
  sessionId?: string | undefined;
  /** `MCP-Protocol-Version`, when the revision has the header. */
  version?: string | undefined;
  /** The envelope's other headers: mirrored fields, Last-Event-ID. */
  envelope?: Record<string, string> | undefined;
  /** A POST's JSON-RPC message. */
  body?: JsonRpcMessage | undefined;
  signal: AbortSignal;
}

export function httpRequest(target: HttpTarget, request: ChannelRequest): Promise<HttpResponse> {
  const headers: Record<string, string> = {
    ...target.headers,
    ...request.envelope,
    accept: request.accept,
  };
  if (request.sessionId !== undefined) headers['mcp-session-id'] = request.sessionId;
  if (request.version) headers['mcp-protocol-version'] = request.version;
  const sent: HttpRequest = {
    url: target.url,
    method: request.method,
    headers,
    signal: request.signal,
  };
  if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    sent.body = JSON.stringify(request.body);
  }
  return send(target.dispatcher, sent);
}
