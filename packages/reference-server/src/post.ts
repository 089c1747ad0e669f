import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerRequests, defaultRun } from './answer.ts';
import type { ServerCore } from './context.ts';
import { lookupSession, versionHeaderAcceptable } from './endpoint.ts';
import { accepts, header, mediaType, sendEmpty, sendRpcError } from './http-util.ts';
import {
  classifyMessage,
  ErrorCode,
  isObject,
  type JsonObject,
  RpcError,
  type RpcIncoming,
  type RpcNotification,
  type RpcRequest,
} from './jsonrpc.ts';
import { isModernMessage } from './modern/envelope.ts';
import { handleModern } from './modern/handle.ts';
import { initializeResult, negotiateVersion, requestedVersion } from './protocol.ts';
import { type EndpointKind, Session } from './session.ts';
import type { FailReply, ReceivedRequest } from './types.ts';

/** What a server assumes without a version header or a session (transports spec, 2025-06-18+). */
const FALLBACK_VERSION = '2025-03-26';
/** The only revision whose transport allows JSON-RPC batches. */
const BATCH_VERSION = '2025-03-26';
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const SSE = 'text/event-stream';
const JSON_TYPE = 'application/json';

/** Reads the body, or returns undefined when it exceeds the size limit. */
export function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks) : undefined));
    req.on('error', reject);
    // A client (or close()) dropping the connection mid-body must not leave this pending forever.
    req.on('close', () => {
      if (!req.complete) reject(new Error('connection closed before the body was complete'));
    });
  });
}

export function parseJson(body: Buffer): { readonly value: unknown } | undefined {
  try {
    return { value: JSON.parse(body.toString('utf8')) };
  } catch {
    return undefined;
  }
}

/** The JSON-RPC methods a body carries, for failNext's method filter. */
function methodsOf(parsed: { readonly value: unknown } | undefined): string[] {
  if (parsed === undefined) return [];
  const values: unknown[] = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  return values.flatMap((value) =>
    isObject(value) && typeof value['method'] === 'string' ? [value['method']] : [],
  );
}

/** Sends failNext's canned reply. */
function sendFailure(res: ServerResponse, reply: FailReply): void {
  const headers: Record<string, string> = {};
  if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter;
  const body = reply.body ?? '';
  if (body !== '') {
    headers['content-type'] =
      parseJson(Buffer.from(body)) === undefined ? 'text/plain; charset=utf-8' : JSON_TYPE;
  }
  res.writeHead(reply.status, headers);
  res.end(body);
}

/** Applies a client notification: initialized opens the session, cancelled aborts a request. */
export function receiveNotification(
  core: ServerCore,
  session: Session | undefined,
  note: RpcNotification,
): void {
  if (note.method === 'notifications/initialized') {
    if (session !== undefined) session.initialized = true;
    return;
  }
  if (note.method !== 'notifications/cancelled' || !isObject(note.params)) return;
  const { requestId, reason } = note.params;
  // Malformed cancellations are ignored, as the spec asks.
  if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
  core.cancelled.push(typeof reason === 'string' ? { requestId, reason } : { requestId });
  (session?.inFlight ?? core.statelessInFlight).cancel(requestId);
}

/** The capabilities an initialize request declared (requestedVersion has checked their shape). */
function clientCapabilities(params: unknown): JsonObject {
  const capabilities = isObject(params) ? params['capabilities'] : undefined;
  return isObject(capabilities) ? capabilities : {};
}

async function answerInitialize(
  core: ServerCore,
  kind: EndpointKind,
  req: IncomingMessage,
  res: ServerResponse,
  request: RpcRequest,
): Promise<void> {
  if (kind !== 'stateless') {
    const existing = header(req, 'mcp-session-id');
    if (existing !== undefined) {
      if (core.sessions.get(existing, kind) === undefined) {
        sendRpcError(res, 404, ErrorCode.SessionNotFound, 'Session not found');
      } else {
        sendRpcError(res, 400, ErrorCode.InvalidRequest, 'Session already initialized');
      }
      return;
    }
  }
  let outcome: { readonly version: string } | { readonly error: RpcError };
  try {
    outcome = { version: negotiateVersion(requestedVersion(request.params), core.versions) };
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    outcome = { error };
  }
  // The session exists before the answer is written, so a cut initialize stream can be resumed.
  const session =
    'version' in outcome && kind !== 'stateless'
      ? new Session(kind, outcome.version, clientCapabilities(request.params))
      : undefined;
  if (session !== undefined) core.sessions.add(session);
  await answerRequests(core, res, {
    kind,
    session,
    batch: false,
    requests: [request],
    headers: session === undefined ? {} : { 'mcp-session-id': session.id },
    run: async () => {
      if ('error' in outcome) throw outcome.error;
      return initializeResult(outcome.version);
    },
  });
}

/** POST: one JSON-RPC message (or, in 2025-03-26, a batch) from the client. */
export async function handlePost(
  core: ServerCore,
  kind: EndpointKind,
  req: IncomingMessage,
  res: ServerResponse,
  entry: ReceivedRequest,
): Promise<void> {
  const body = await readBody(req);
  if (body === undefined) {
    sendRpcError(res, 413, ErrorCode.InvalidRequest, `Body larger than ${MAX_BODY_BYTES} bytes`);
    return;
  }
  const parsed = parseJson(body);
  entry.body = parsed?.value;
  const failure = core.faults.takeFailure(methodsOf(parsed));
  if (failure !== undefined) {
    sendFailure(res, failure);
    return;
  }
  if (mediaType(header(req, 'content-type')) !== JSON_TYPE) {
    sendRpcError(res, 415, ErrorCode.ServerError, `Unsupported Media Type: use ${JSON_TYPE}`);
    return;
  }
  const accept = header(req, 'accept');
  const streaming = kind === 'sse' || kind === 'modern';
  if (!accepts(accept, JSON_TYPE) || (streaming && !accepts(accept, SSE))) {
    const wanted = streaming ? `${JSON_TYPE} and ${SSE}` : JSON_TYPE;
    sendRpcError(res, 406, ErrorCode.ServerError, `Not Acceptable: Accept must list ${wanted}`);
    return;
  }
  if (parsed === undefined) {
    sendRpcError(res, 400, ErrorCode.ParseError, 'Parse error: body is not valid JSON');
    return;
  }
  const batch = Array.isArray(parsed.value);
  const values: unknown[] = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  const messages = values.map(classifyMessage);
  if (messages.length === 0 || !messages.every((message) => message !== undefined)) {
    sendRpcError(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message');
    return;
  }
  if (core.protection && !core.protection.permits(req, res, entry.path, messages)) return;
  // A dual-era endpoint tells the eras apart by the message itself: see isModernMessage.
  const dualEra =
    core.dualEra && (kind === 'sse' || kind === 'json') && isModernMessage(req, parsed.value);
  if (kind === 'modern' || dualEra) {
    const [message] = messages;
    if (batch || message === undefined) {
      sendRpcError(
        res,
        400,
        ErrorCode.InvalidRequest,
        'JSON-RPC batches are not part of MCP 2026-07-28',
      );
      return;
    }
    await handleModern(
      core,
      { modernOnly: kind === 'modern', streams: kind !== 'json' },
      req,
      res,
      message,
    );
    return;
  }
  const initialize = messages.find(
    (message): message is RpcRequest =>
      message.kind === 'request' && message.method === 'initialize',
  );
  if (initialize !== undefined) {
    if (batch) {
      sendRpcError(res, 400, ErrorCode.InvalidRequest, 'initialize must not be part of a batch');
      return;
    }
    await answerInitialize(core, kind, req, res, initialize);
    return;
  }
  await handleMessages(core, kind, req, res, messages, batch);
}

async function handleMessages(
  core: ServerCore,
  kind: EndpointKind,
  req: IncomingMessage,
  res: ServerResponse,
  messages: readonly RpcIncoming[],
  batch: boolean,
): Promise<void> {
  if (!versionHeaderAcceptable(core, req, res)) return;
  let session: Session | undefined;
  if (kind !== 'stateless') {
    session = lookupSession(core, kind, req, res);
    if (session === undefined) return;
  }
  const version = header(req, 'mcp-protocol-version') ?? session?.version ?? FALLBACK_VERSION;
  if (batch && version !== BATCH_VERSION) {
    sendRpcError(
      res,
      400,
      ErrorCode.InvalidRequest,
      `JSON-RPC batches are only allowed in protocol version ${BATCH_VERSION}, not ${version}`,
    );
    return;
  }
  const requests: RpcRequest[] = [];
  for (const message of messages) {
    if (message.kind === 'request') requests.push(message);
    else if (message.kind === 'notification') receiveNotification(core, session, message);
    else session?.deliverResponse(message);
  }
  if (requests.length === 0) {
    sendEmpty(res, 202);
    return;
  }
  await answerRequests(core, res, {
    kind,
    session,
    batch,
    requests,
    headers: {},
    run: defaultRun(session),
  });
}
