/**
 * stdio as a channel: a local server started as a child process, one JSON-RPC message per line.
 * All messages share the one pipe, so what the server says is routed here: a response to its
 * request, progress to the call whose token it carries, everything else (log messages, list
 * changes, a legacy server's own requests) to the dialect's inbound listener. Abandoning a request
 * is `notifications/cancelled`; a request the process died under is sent again to a new process
 * only as the retry policy allows (idempotent, or never seen). Loaded only for stdio clients.
 */

import { typedError } from '../../core/call-boundary.ts';
import { Deadline } from '../../core/deadline.ts';
import { JsonRpcError, ServerExitedError } from '../../core/errors.ts';
import {
  type Incoming,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
  notification,
  type RequestId,
} from '../../core/jsonrpc.ts';
import { asIs } from '../../core/outcome.ts';
import type { RetryPolicy } from '../../core/types.ts';
import { RpcCode } from '../../core/wire-codes.ts';
import { Retry, refusedResponse, withRetry } from '../transport/retry.ts';
import { StdioPipe } from '../transport/stdio/pipe.ts';
import type { ServerCommand } from '../transport/stdio/process.ts';
import type { Channel, ChannelCall, ChannelEvents, Listening, SessionOpening } from './channel.ts';

export interface StdioConfig {
  command: ServerCommand;
  /** How errors name the server: its command line. */
  label: string;
  maxResponseBytes: number;
  retry: RetryPolicy;
  /** How long `close()` waits for the server to exit, after ending stdin and after SIGTERM. */
  graceMs: number;
}

/** A listen request outlives every call: the longest timer Node keeps. */
const FOREVER_MS = 2 ** 31 - 1;

export class StdioChannel implements Channel {
  readonly label: string;
  /** "There is no header layer": everything is in the message. */
  readonly mirrors = false;
  readonly #pipe: StdioPipe;
  readonly #config: StdioConfig;
  #inbound: (incoming: Incoming) => void = () => {};
  readonly #events: Pick<ChannelEvents, 'warning' | 'stderr'>;
  /** The legacy era's session opener, and the process it last opened a session with. */
  #open: ((deadline: Deadline, opening: SessionOpening) => Promise<void>) | undefined;
  #openedFor = 0;
  #opening: Promise<void> | undefined;

  /** `events` hears of background failures and the server's stderr from its very start. */
  constructor(config: StdioConfig, events: Pick<ChannelEvents, 'warning' | 'stderr'>) {
    this.label = config.label;
    this.#config = config;
    this.#events = events;
    this.#pipe = new StdioPipe(
      config.command,
      { label: config.label, maxMessageBytes: config.maxResponseBytes, graceMs: config.graceMs },
      {
        incoming: (incoming) => this.#route(incoming),
        warning: (error) => this.#events.warning(error),
        stderr: (line) => this.#events.stderr?.(line),
        exited: (error) => this.#events.warning(error),
        abandoned: (id, reason) => this.#cancel(id, reason),
      },
    );
  }

  /** Where what belongs to no call goes (the events were given when the channel was made). */
  attach(inbound: (incoming: Incoming) => void): void {
    this.#inbound = inbound;
  }

  /** Which process this is; it changes when the server was started again. */
  get generation(): number {
    return this.#pipe.generation;
  }

  /** The running server's process id. */
  get pid(): number | undefined {
    return this.#pipe.pid;
  }

  keepSession(open: (deadline: Deadline, opening: SessionOpening) => Promise<void>): void {
    this.#open = open;
  }

  /** Makes sure a process runs and, for the legacy era, that its session is open. */
  async openSession(deadline: Deadline): Promise<void> {
    const generation = this.#pipe.running ?? (await this.#pipe.start(deadline.signal));
    const open = this.#open;
    if (!open || generation === this.#openedFor) return;
    // A process started again has a session no more: the legacy era opens it again first.
    this.#opening ??= open(deadline, this.#handshake)
      .then(() => {
        this.#openedFor = generation;
      })
      .finally(() => {
        this.#opening = undefined;
      });
    await this.#opening;
  }

  /** The handshake goes on the pipe like anything else, before the session is taken as open. */
  readonly #handshake: SessionOpening = {
    request: async (message, call) => ({
      response: await this.request(message, { ...call, handshake: true }, asIs),
    }),
    send: (message, deadline) => this.#pipe.send(message, deadline.signal),
    // One process, one session: nothing to remember, and no stream to open beside the pipe.
    opened: () => {},
  };

  request<T>(
    message: JsonRpcRequest,
    call: ChannelCall,
    read: (response: JsonRpcResponse) => T | Promise<T>,
  ): Promise<T> {
    const retry = {
      // A probe's answer may be that the server exits: it is not sent again.
      idempotent: call.idempotent && !call.probe,
      deadline: call.deadline,
      refused: refusedResponse,
    };
    const again = () => this.#once(message, call);
    // Nothing to wait for on the way of nearly every call: a process runs, its session is open.
    if (call.deadline.aborted || !this.#ready(call)) {
      return withRetry(again, this.#config.retry, retry).then(read);
    }
    const answer = new Retry(again, this.#config.retry, retry, read);
    this.#pipe.exchange(message, call.deadline, call.onMessage, answer);
    return answer.promise;
  }

  send(message: JsonRpcMessage, signal: AbortSignal): Promise<void> {
    return this.#pipe.send(message, signal);
  }

  listen(
    build: () => { message: JsonRpcRequest; version: string },
    events: ChannelEvents,
  ): Listening {
    const stopped = new AbortController();
    const running = this.#keepListening(build, events, stopped.signal);
    return {
      stop: async () => {
        stopped.abort(new Error('subscription stopped'));
        await running;
      },
    };
  }

  close(): Promise<void> {
    return this.#pipe.close();
  }

  #once(message: JsonRpcRequest, call: ChannelCall): Promise<JsonRpcResponse> {
    if (this.#ready(call)) return this.#pipe.request(message, call.deadline, call.onMessage);
    return this.openSession(call.deadline).then(() =>
      this.#pipe.request(message, call.deadline, call.onMessage),
    );
  }

  /** Whether the request can go at once: a process runs and, for the legacy era, has a session. */
  #ready(call: ChannelCall): boolean {
    const running = this.#pipe.running;
    return (
      call.handshake === true ||
      (running !== undefined && (this.#open === undefined || running === this.#openedFor))
    );
  }

  /** The binding's cancellation: there is no stream to close, so the server is told. */
  #cancel(id: RequestId, reason: Error | undefined): void {
    if (this.#pipe.pid === undefined) return;
    void this.#pipe
      .send(
        notification('notifications/cancelled', {
          requestId: id,
          reason: reason?.message ?? 'cancelled',
        }),
        AbortSignal.timeout(this.#config.graceMs),
      )
      .catch(() => {});
  }

  /** Progress goes to the call it is about (its token is the request's id); the rest to the dialect. */
  #route(incoming: Incoming): void {
    if (incoming.kind === 'notification' && incoming.message.method === 'notifications/progress') {
      const token = incoming.message.params?.['progressToken'];
      const call =
        typeof token === 'string' || typeof token === 'number'
          ? this.#pipe.listenerOf(token)
          : undefined;
      if (call) {
        call(incoming);
        return;
      }
    }
    this.#inbound(incoming);
  }

  /**
   * The listen request, open until stopped; opened again on a new process when the server dies
   * (changes may have been missed meanwhile: caches are stale), until the restarts run out.
   */
  async #keepListening(
    build: () => { message: JsonRpcRequest; version: string },
    events: ChannelEvents,
    stopped: AbortSignal,
  ): Promise<void> {
    let first = true;
    while (!stopped.aborted) {
      if (!first) events.stale?.();
      first = false;
      const { message, version } = build();
      using deadline = new Deadline({
        timeoutMs: FOREVER_MS,
        maxTimeoutMs: FOREVER_MS,
        signal: stopped,
        context: { url: this.label, method: 'subscriptions/listen' },
      });
      try {
        // What it delivers is tagged with its subscription id, not a progress token: it reaches
        // the dialect's inbound listener like anything else that belongs to no call.
        const answer = await this.#once(message, {
          deadline,
          idempotent: true,
          version,
          onMessage: () => {},
        });
        // A final answer ends the subscription; a server without the method is left alone.
        if ('error' in answer && answer.error.code !== RpcCode.methodNotFound) {
          const where = { url: this.label, method: 'subscriptions/listen' };
          const { code, message, data } = answer.error;
          events.warning(new JsonRpcError(code, message, { ...where, data }));
        }
        return;
      } catch (error) {
        if (stopped.aborted) return;
        if (!(error instanceof ServerExitedError) || !error.retryable) {
          const where = { url: this.label, method: 'subscriptions/listen' };
          events.warning(typedError(error, where) as Error);
          return;
        }
      }
    }
  }
}
