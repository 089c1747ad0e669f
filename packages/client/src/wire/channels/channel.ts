/**
 * What carries a dialect's messages to a server and back. An MCP dialect speaks to a Channel,
 * never to HTTP or to a process: Streamable HTTP (with or without a session) and stdio are
 * channels under it, and a new binding is a new channel, not a copy of the dialects.
 */
import type { Deadline } from '../../core/deadline.ts';
import type { McpError } from '../../core/errors.ts';
import type {
  Incoming,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
} from '../../core/jsonrpc.ts';
import type { Revalidation } from '../../core/revalidation.ts';
import type { Progress } from '../../core/types.ts';

/** Where the server's own requests go (dialects/inbound.ts): answered, or cancelled by the server. */
export interface InboundRequests {
  receive(request: JsonRpcRequest, call?: Waiter): void;
  cancel(requestId: RequestId): void;
}

export interface Waiter {
  readonly id: RequestId;
  response: JsonRpcResponse | undefined;
  onProgress: ((progress: Progress) => void) | undefined;
  /** Called when the response arrives, for a caller that waits on another stream than its own. */
  arrived?: (() => void) | undefined;
  /** The call's deadline: questions the server asks on the call's stream live under it. */
  deadline?: Deadline | undefined;
  /**
   * Ends the call with `error` at once: a question on its stream that the client cannot answer
   * means the call cannot go on as the server meant it to. Set by the dialect while it waits.
   */
  fail?: ((error: McpError) => void) | undefined;
  /** The tool being called, for the handlers' context and error messages. */
  tool?: string | undefined;
}

/**
 * Where a channel (and the dialect above it) hands what the server says outside any call's
 * answer, and what goes wrong in the background.
 */
export interface ChannelEvents {
  notification(message: JsonRpcNotification): void;
  /** Something went wrong in the background (a listen stream that gave up, say); never thrown. */
  warning(error: Error): void;
  /** Changes may have been missed (a notification stream was lost): cached lists are stale. */
  stale?(): void;
  /** One line a local server wrote to its stderr: its logs, never protocol. */
  stderr?(line: string): void;
}

export interface ChannelCall {
  deadline: Deadline;
  /** May be sent again after the server may have seen it. */
  idempotent: boolean;
  /** The tool being called, for error messages. */
  tool?: string | undefined;
  /** The revision the request speaks (HTTP mirrors it in `MCP-Protocol-Version`). */
  version: string;
  /** Body fields a binding may mirror into its envelope (HTTP headers); others ignore them. */
  mirror?: Record<string, string> | undefined;
  /**
   * What the server says about the request before its response (progress, log messages, its
   * questions; over a binding with many streams, responses to other requests too).
   */
  onMessage(incoming: Incoming): void;
  /**
   * The call's entry in the dialect's router, for a binding whose answer may come on another
   * stream than the request's (Streamable HTTP with a session): the request is answered once the
   * router has set `waiter.response`, whichever stream brought it.
   */
  waiter?: Waiter | undefined;
  /** The request opens a session (`initialize`): it goes out before the session is open. */
  handshake?: boolean | undefined;
  /** A negotiation probe: a server that exits on it has answered (stdio); it is not sent again. */
  probe?: boolean | undefined;
  /** A list's first page, revalidated over HTTP by its ETag; other bindings ignore it. */
  revalidation?: Revalidation | undefined;
}

export interface Channel {
  /** The server as errors name it: its URL, or its command line. */
  readonly label: string;
  /** Whether the binding mirrors body fields into its envelope (HTTP headers): `call.mirror`. */
  readonly mirrors: boolean;
  /**
   * Sends a request and resolves with `read` of its response (`asIs` for the response itself),
   * sending it again only as the retry policy allows. The response is read where the binding
   * settles it, so a call crosses the layers on one promise. When `call.deadline` aborts, the
   * server is told the request is abandoned in the binding's way (HTTP: the response stream is
   * closed; stdio: `notifications/cancelled`).
   */
  request<T>(
    message: JsonRpcRequest,
    call: ChannelCall,
    read: (response: JsonRpcResponse) => T | Promise<T>,
  ): Promise<T>;
  /** Sends a notification. */
  send(message: JsonRpcMessage, signal: AbortSignal): Promise<void>;
  /**
   * Where the server's messages that belong to no request go (stdio's one pipe carries them
   * all), and where background failures and the server's stderr lines are told.
   */
  attach(inbound: (incoming: Incoming) => void, events: ChannelEvents): void;
  /**
   * For a dialect whose servers keep a session (the legacy era): `open` runs before anything
   * else reaches a server the channel has no session with (a new or restarted process, a session
   * the server forgot), once, however many requests wait for it. It speaks through `opening`,
   * whose messages go out in the session being opened.
   */
  keepSession?(open: (deadline: Deadline, opening: SessionOpening) => Promise<void>): void;
  /** Opens the session now, if the server has none (see keepSession). */
  openSession?(deadline: Deadline): Promise<void>;
  /**
   * Keeps a `subscriptions/listen` request open (2026-07-28), opened again when it breaks;
   * `build` makes each attempt's request, so a changed filter is sent on the next one. What it
   * delivers goes to `events.notification`, its subscription id taken off. Only the bindings
   * the modern era speaks over have it.
   */
  listen?(
    build: () => { message: JsonRpcRequest; version: string },
    events: ChannelEvents,
  ): Listening;
  /** Frees what the channel holds (sockets, a process). Never throws. */
  close(): Promise<void>;
}

/** The handshake's way to the server, in the session it opens (see Channel.keepSession). */
export interface SessionOpening {
  /** A request of the handshake; `status` is the HTTP status its answer came with, if any. */
  request(
    message: JsonRpcRequest,
    call: ChannelCall,
  ): Promise<{ response: JsonRpcResponse; status?: number | undefined }>;
  /** A notification of the handshake (`notifications/initialized`). */
  send(message: JsonRpcMessage, deadline: Deadline): Promise<void>;
  /**
   * The server speaks `version` in this session; `stream`: keep a stream open for what belongs
   * to no request (Streamable HTTP's GET stream), which is worth it only when something can come.
   */
  opened(version: string, options: { stream: boolean }): void;
}

/** An open subscriptions/listen. */
export interface Listening {
  stop(): Promise<void>;
}
