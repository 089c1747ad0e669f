/**
 * The deprecated HTTP+SSE transport of 2024-11-05: `GET /sse` opens the one stream a connection
 * has and names, in an `endpoint` event, the URL to POST messages to. Every POST is accepted with
 * 202 and answered on the stream as a `message` event, where server requests and notifications go
 * too. Kept so clients can be tested against servers that never moved to Streamable HTTP.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { defaultRun, execute } from './answer.ts';
import type { MessageSink, ServerCore } from './context.ts';
import { header, mediaType, sendEmpty, sendRpcError } from './http-util.ts';
import {
  classifyMessage,
  ErrorCode,
  errorMessage,
  isObject,
  type JsonObject,
  type RpcIncoming,
  type RpcRequest,
  resultMessage,
} from './jsonrpc.ts';
import { parseJson, readBody, receiveNotification } from './post.ts';
import { initializeResult, negotiateVersion, requestedVersion } from './protocol.ts';
import { Session } from './session.ts';
import type { ReceivedRequest } from './types.ts';

/** Where the endpoint event sends clients. */
export const MESSAGES_PATH = '/messages';

/** One GET connection and, once it has sent initialize, its session. */
class Channel implements MessageSink {
  readonly id = randomUUID();
  readonly #res: ServerResponse;
  session: Session | undefined;

  constructor(res: ServerResponse) {
    this.#res = res;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
    });
    res.flushHeaders();
  }

  get finished(): boolean {
    return this.#res.writableEnded || this.#res.destroyed;
  }

  send(message: JsonObject): boolean {
    return this.#event('message', JSON.stringify(message));
  }

  /** The first event: where to POST. */
  announce(url: string): void {
    this.#event('endpoint', url);
  }

  end(): void {
    if (!this.finished) this.#res.end();
  }

  #event(name: string, data: string): boolean {
    if (this.finished) return false;
    this.#res.write(`event: ${name}\ndata: ${data}\n\n`);
    return true;
  }
}

function capabilitiesOf(params: unknown): JsonObject {
  const capabilities = isObject(params) ? params['capabilities'] : undefined;
  return isObject(capabilities) ? capabilities : {};
}

/** Every open HTTP+SSE connection of one server. */
export class HttpSseTransport {
  readonly #channels = new Map<string, Channel>();

  /** GET /sse: opens the stream and announces the POST endpoint of this connection. */
  open(core: ServerCore, res: ServerResponse): void {
    const channel = new Channel(res);
    this.#channels.set(channel.id, channel);
    res.on('close', () => {
      this.#channels.delete(channel.id);
      const { session } = channel;
      if (session !== undefined) {
        core.sessions.delete(session.id);
        session.terminate();
      }
    });
    channel.announce(`${MESSAGES_PATH}?sessionId=${channel.id}`);
  }

  /** POST /messages?sessionId=…: 202 at once, the answer on the stream. */
  async post(
    core: ServerCore,
    req: IncomingMessage,
    res: ServerResponse,
    entry: ReceivedRequest,
  ): Promise<void> {
    const id = new URL(req.url ?? '/', 'http://localhost').searchParams.get('sessionId');
    const channel = id === null ? undefined : this.#channels.get(id);
    const body = await readBody(req);
    const parsed = body === undefined ? undefined : parseJson(body);
    entry.body = parsed?.value;
    if (channel === undefined) {
      sendRpcError(res, 404, ErrorCode.ServerError, 'Unknown or closed sessionId');
      return;
    }
    if (mediaType(header(req, 'content-type')) !== 'application/json') {
      sendRpcError(res, 415, ErrorCode.ServerError, 'Unsupported Media Type: use application/json');
      return;
    }
    const values: unknown[] = Array.isArray(parsed?.value) ? parsed.value : [parsed?.value];
    const messages = parsed === undefined ? [] : values.map(classifyMessage);
    if (messages.length === 0 || !messages.every((message) => message !== undefined)) {
      sendRpcError(
        res,
        400,
        ErrorCode.InvalidRequest,
        'Invalid Request: not a JSON-RPC 2.0 message',
      );
      return;
    }
    sendEmpty(res, 202);
    for (const message of messages) {
      this.#receive(core, channel, message).catch(() => {
        // Only close() can interrupt a request here; the stream is gone then anyway.
      });
    }
  }

  /** Ends every stream, as close() does. */
  closeAll(): void {
    for (const channel of this.#channels.values()) channel.end();
    this.#channels.clear();
  }

  async #receive(core: ServerCore, channel: Channel, message: RpcIncoming): Promise<void> {
    if (message.kind === 'notification') {
      receiveNotification(core, channel.session, message);
      return;
    }
    if (message.kind === 'response') {
      channel.session?.deliverResponse(message);
      return;
    }
    if (message.method === 'initialize') {
      channel.send(this.#initialize(core, channel, message));
      return;
    }
    const { session } = channel;
    if (session === undefined) {
      channel.send(errorMessage(message.id, ErrorCode.InvalidRequest, 'Send initialize first'));
      return;
    }
    const response = await execute(core, { session, run: defaultRun(session) }, message, channel);
    if (response !== undefined) channel.send(response);
  }

  #initialize(core: ServerCore, channel: Channel, request: RpcRequest): JsonObject {
    if (channel.session !== undefined) {
      return errorMessage(request.id, ErrorCode.InvalidRequest, 'Session already initialized');
    }
    let version: string;
    try {
      version = negotiateVersion(requestedVersion(request.params), core.versions);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return errorMessage(request.id, ErrorCode.InvalidParams, message);
    }
    const session = new Session('http-sse', version, capabilitiesOf(request.params));
    session.useChannel(channel);
    core.sessions.add(session);
    channel.session = session;
    return resultMessage(request.id, initializeResult(version));
  }
}
