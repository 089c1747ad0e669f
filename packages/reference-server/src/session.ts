import { randomUUID } from 'node:crypto';
import type { MessageSink } from './context.ts';
import { idKey, type JsonObject, type RequestId, type RpcResponse } from './jsonrpc.ts';
import type { LoggingLevel } from './logging.ts';
import { SseStream } from './sse-stream.ts';

/**
 * Which endpoint a session (or request) belongs to: `modern` is the 2026-07-28-only endpoint,
 * `http-sse` the 2024-11-05 HTTP+SSE transport, `stdio` the standard streams of the process.
 */
export type EndpointKind = 'sse' | 'json' | 'stateless' | 'modern' | 'http-sse' | 'stdio';

/** Finished POST streams kept for late resumption; older ones are forgotten. */
const MAX_RETAINED_STREAMS = 64;

/**
 * Requests currently being processed, by JSON-RPC id, so `notifications/cancelled` can abort
 * them. A set per id, because on the stateless endpoint unrelated clients reuse the same ids.
 */
export class InFlightRequests {
  readonly #byId = new Map<string, Set<AbortController>>();

  add(id: RequestId, controller: AbortController): void {
    const key = idKey(id);
    const set = this.#byId.get(key) ?? new Set();
    set.add(controller);
    this.#byId.set(key, set);
  }

  remove(id: RequestId, controller: AbortController): void {
    const key = idKey(id);
    const set = this.#byId.get(key);
    set?.delete(controller);
    if (set?.size === 0) this.#byId.delete(key);
  }

  /** Aborts the request(s) with this id; unknown ids are ignored, as the spec asks. */
  cancel(id: RequestId): void {
    for (const controller of this.#byId.get(idKey(id)) ?? []) controller.abort();
  }

  abortAll(): void {
    for (const set of this.#byId.values()) for (const controller of set) controller.abort();
  }
}

/** One MCP session on a stateful endpoint, from `initialize` until DELETE or a drop. */
export class Session {
  readonly id = randomUUID();
  readonly endpoint: EndpointKind;
  /** The protocol version negotiated in `initialize`. */
  readonly version: string;
  /** The client's `initialize` capabilities: sampling and elicitation are asked only if declared. */
  readonly clientCapabilities: JsonObject;
  /** Set by `notifications/initialized`; until then only ping is served. */
  initialized = false;
  /** Threshold from `logging/setLevel`; undefined lets every level through. */
  logLevel: LoggingLevel | undefined;
  readonly subscriptions = new Set<string>();
  readonly inFlight = new InFlightRequests();
  readonly #streams = new Map<string, SseStream>();
  readonly #awaitingClient = new Map<string, (response: RpcResponse) => void>();
  #standalone: SseStream | undefined;
  /** The HTTP+SSE transport's one stream, which carries every server message of the session. */
  #channel: MessageSink | undefined;
  #nextStream = 1;
  #nextRequest = 1;

  constructor(endpoint: EndpointKind, version: string, clientCapabilities: JsonObject = {}) {
    this.endpoint = endpoint;
    this.version = version;
    this.clientCapabilities = clientCapabilities;
  }

  /** A new stream for one POST's answer. */
  openPostStream(): SseStream {
    const stream = new SseStream(String(this.#nextStream++));
    this.#streams.set(stream.id, stream);
    this.#forgetOldStreams();
    return stream;
  }

  /** The stream a plain GET attaches to, created on first use. */
  standaloneStream(): SseStream {
    if (this.#standalone === undefined) {
      this.#standalone = new SseStream(String(this.#nextStream++));
      this.#streams.set(this.#standalone.id, this.#standalone);
    }
    return this.#standalone;
  }

  /** The standalone stream, but only while a GET connection is carrying it. */
  connectedStandalone(): MessageSink | undefined {
    if (this.#channel !== undefined) return this.#channel.finished ? undefined : this.#channel;
    return this.#standalone?.connected === true ? this.#standalone : undefined;
  }

  /** Makes `channel` (an HTTP+SSE stream) the way every server message reaches this session. */
  useChannel(channel: MessageSink): void {
    this.#channel = channel;
  }

  /** Finds the stream a `Last-Event-ID` belongs to, and the position to resume after. */
  findStream(lastEventId: string): { stream: SseStream; seq: number } | undefined {
    const parsed = SseStream.parseEventId(lastEventId);
    const stream = parsed === undefined ? undefined : this.#streams.get(parsed.streamId);
    return stream === undefined || parsed === undefined ? undefined : { stream, seq: parsed.seq };
  }

  /** Registers a request this server sends to the client; the promise settles on its answer. */
  expectResponse(): { id: string; response: Promise<RpcResponse>; forget: () => void } {
    // A prefix keeps these ids apart from the client's own request ids in logs.
    const id = `server-${this.#nextRequest++}`;
    const response = new Promise<RpcResponse>((resolve) => this.#awaitingClient.set(id, resolve));
    return { id, response, forget: () => this.#awaitingClient.delete(id) };
  }

  /** Routes a JSON-RPC response the client POSTed to whoever awaits it. */
  deliverResponse(response: RpcResponse): void {
    if (typeof response.id !== 'string') return;
    const resolve = this.#awaitingClient.get(response.id);
    this.#awaitingClient.delete(response.id);
    resolve?.(response);
  }

  /** Ends the GET connection gracefully, e.g. when the session is dropped. */
  disconnectStandalone(): void {
    this.#standalone?.disconnect();
  }

  /** Ends the session: in-flight requests are aborted and every open stream is closed. */
  terminate(): void {
    this.inFlight.abortAll();
    this.#awaitingClient.clear();
    for (const stream of this.#streams.values()) stream.finish();
  }

  #forgetOldStreams(): void {
    for (const [id, stream] of this.#streams) {
      if (this.#streams.size <= MAX_RETAINED_STREAMS) return;
      if (stream.finished && stream !== this.#standalone) this.#streams.delete(id);
    }
  }
}

/** The live sessions of one server. */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();

  add(session: Session): void {
    this.#sessions.set(session.id, session);
  }

  /** The session with this id, if it exists on this endpoint. */
  get(id: string, endpoint: EndpointKind): Session | undefined {
    const session = this.#sessions.get(id);
    return session?.endpoint === endpoint ? session : undefined;
  }

  delete(id: string): void {
    this.#sessions.delete(id);
  }

  all(): Session[] {
    return [...this.#sessions.values()];
  }

  clear(): void {
    this.#sessions.clear();
  }
}
