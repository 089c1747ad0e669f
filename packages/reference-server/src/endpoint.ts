/* Checks every stateful request shares (version header, session), and the GET and DELETE handlers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { primes } from './answer.ts';
import type { ServerCore } from './context.ts';
import { accepts, header, sendEmpty, sendRpcError } from './http-util.ts';
import { ErrorCode } from './jsonrpc.ts';
import type { EndpointKind, Session } from './session.ts';

const SSE = 'text/event-stream';

/** Answers 400 and returns false when `MCP-Protocol-Version` names a version we do not speak. */
export function versionHeaderAcceptable(
  core: ServerCore,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  const version = header(req, 'mcp-protocol-version');
  if (version === undefined || core.versions.includes(version)) return true;
  sendRpcError(
    res,
    400,
    ErrorCode.InvalidRequest,
    `Unsupported MCP-Protocol-Version: ${version} (supported: ${core.versions.join(', ')})`,
    { supported: core.versions, requested: version },
  );
  return false;
}

/** The caller's session, or undefined after answering 400 (no header) or 404 (unknown id). */
export function lookupSession(
  core: ServerCore,
  kind: EndpointKind,
  req: IncomingMessage,
  res: ServerResponse,
): Session | undefined {
  const id = header(req, 'mcp-session-id');
  if (id === undefined) {
    sendRpcError(res, 400, ErrorCode.ServerError, 'Bad Request: Mcp-Session-Id header is required');
    return undefined;
  }
  const session = core.sessions.get(id, kind);
  if (session === undefined) sendRpcError(res, 404, ErrorCode.SessionNotFound, 'Session not found');
  return session;
}

/** GET: opens the session's standalone stream, or resumes any of its streams by Last-Event-ID. */
export function handleGet(
  core: ServerCore,
  kind: EndpointKind,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  if (!accepts(header(req, 'accept'), SSE)) {
    sendRpcError(res, 406, ErrorCode.ServerError, `Not Acceptable: Accept must list ${SSE}`);
    return;
  }
  if (!versionHeaderAcceptable(core, req, res)) return;
  const session = lookupSession(core, kind, req, res);
  if (session === undefined) return;
  const lastEventId = header(req, 'last-event-id');
  if (lastEventId !== undefined) {
    const found = session.findStream(lastEventId);
    if (found === undefined) {
      sendRpcError(res, 400, ErrorCode.ServerError, `Unknown Last-Event-ID: ${lastEventId}`);
      return;
    }
    found.stream.attach(res, { replayAfter: found.seq });
    return;
  }
  const stream = session.standaloneStream();
  if (stream.connected) {
    sendRpcError(
      res,
      409,
      ErrorCode.ServerError,
      'Conflict: this session already has a GET stream open',
    );
    return;
  }
  stream.attach(res, { prime: primes(session.version) });
}

/** DELETE: ends the session; its id is unknown (404) from then on. */
export function handleDelete(
  core: ServerCore,
  kind: EndpointKind,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  if (!versionHeaderAcceptable(core, req, res)) return;
  const session = lookupSession(core, kind, req, res);
  if (session === undefined) return;
  core.sessions.delete(session.id);
  session.terminate();
  sendEmpty(res, 204);
}
