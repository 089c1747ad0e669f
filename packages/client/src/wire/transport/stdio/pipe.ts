/**
 * A local server as a message channel: requests matched to their responses by id, everything else
 * the server says handed on as it comes. The process is started on first use and started again
 * after it exits, a bounded number of times in a row; when it exits, every request waiting on it
 * fails at once with the exit code, signal and last stderr lines.
 */

import { onePerCall } from '../../../core/call-boundary.ts';
import {
  type CallEnd,
  type EndListener,
  offEnd,
  onEnd,
  raceAbort,
} from '../../../core/deadline.ts';
import {
  ClientClosedError,
  MalformedMessageError,
  type ResponseTooLargeError,
  ServerExitedError,
  type TransportError,
} from '../../../core/errors.ts';
import { IdTable } from '../../../core/id-table.ts';
import type {
  Incoming,
  JsonRpcMessage,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
} from '../../../core/jsonrpc.ts';
import { type ProcessOptions, type ServerCommand, ServerProcess } from './process.ts';

export interface PipeEvents {
  /** A request or notification from the server. */
  incoming(incoming: Incoming): void;
  warning(error: Error): void;
  stderr(line: string): void;
  /** The process exited while the client still needed it; the next request starts a new one. */
  exited(error: ServerExitedError): void;
  /** A request's caller stopped waiting (its end came first): the server may still work on it. */
  abandoned(id: RequestId, reason: Error | undefined): void;
}

/** How many times in a row the process may exit before answering anything, before giving up. */
export const MAX_RESTARTS = 3;

/**
 * How many given-up requests are remembered, so that their late answers pass without a warning. A
 * server need not answer a cancelled request at all: what it never answers is not kept forever.
 */
export const ABANDONED_KEPT = 1024;

/** Who hears how a request ended: exactly one of the two is called, once. */
export interface Settler {
  resolve(response: JsonRpcResponse): void;
  reject(error: Error): void;
}

/**
 * A request waiting for its answer: one object that settles its caller, listens for the call's
 * end, and carries the listener of what the server says about it first (its progress).
 */
class Pending implements EndListener {
  readonly id: RequestId;
  readonly end: CallEnd;
  readonly onMessage: ((incoming: Incoming) => void) | undefined;
  readonly #settler: Settler;
  readonly #abandon: (pending: Pending) => void;

  constructor(
    id: RequestId,
    end: CallEnd,
    onMessage: ((incoming: Incoming) => void) | undefined,
    settler: Settler,
    abandon: (pending: Pending) => void,
  ) {
    this.id = id;
    this.end = end;
    this.onMessage = onMessage;
    this.#settler = settler;
    this.#abandon = abandon;
  }

  /** The call ended first. */
  handleEvent(): void {
    this.#abandon(this);
  }

  resolve(response: JsonRpcResponse): void {
    offEnd(this.end, this);
    this.#settler.resolve(response);
  }

  reject(error: Error): void {
    offEnd(this.end, this);
    this.#settler.reject(error);
  }
}

export class StdioPipe {
  readonly label: string;
  readonly #command: ServerCommand;
  readonly #options: ProcessOptions;
  readonly #events: PipeEvents;
  readonly #pending = new IdTable<Pending>();
  /** Ids whose answer nobody waits for any more (cancelled, or a probe given up on), the latest. */
  readonly #abandoned = new Set<RequestId>();
  #process: ServerProcess | undefined;
  #starting: Promise<ServerProcess> | undefined;
  #closed = false;
  /** Exits in a row with nothing answered in between. */
  #failures = 0;
  #lastExit: ServerExitedError | undefined;
  /** Which process this is: a legacy session belongs to one. */
  #generation = 0;

  constructor(command: ServerCommand, options: ProcessOptions, events: PipeEvents) {
    this.label = options.label;
    this.#command = command;
    this.#options = options;
    this.#events = events;
  }

  /** Counts the processes started so far; it changes when the server was started again. */
  get generation(): number {
    return this.#generation;
  }

  /** The running process's id, if one runs. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /**
   * Sends a request and resolves with its response. Rejects with the end's reason when the call
   * ends first (the caller tells the server), ServerExitedError when the process exits first,
   * ResponseTooLargeError when the answer is over the limit.
   */
  request(
    message: JsonRpcRequest,
    end: CallEnd,
    onMessage?: (incoming: Incoming) => void,
  ): Promise<JsonRpcResponse> {
    return new Promise((resolve, reject) => {
      this.exchange(message, end, onMessage, { resolve, reject });
    });
  }

  /**
   * `request` for a caller that makes the promise itself (a retry's first attempt): the answer,
   * or the reason there is none, goes to `settler`, never thrown.
   */
  exchange(
    message: JsonRpcRequest,
    end: CallEnd,
    onMessage: ((incoming: Incoming) => void) | undefined,
    settler: Settler,
  ): void {
    if (end.aborted) {
      settler.reject(end.reason!);
      return;
    }
    const process = this.#process;
    // Nearly always a process runs: no await, and no async frame, on the way of a call.
    if (process?.alive) {
      this.#write(process, message, end, onMessage, settler);
      return;
    }
    const signal = end instanceof AbortSignal ? end : end.signal;
    this.#running(signal).then(
      (started) => this.#write(started, message, end, onMessage, settler),
      (error: unknown) => settler.reject(error as Error),
    );
  }

  /** Who listens to what the server says about request `id` before answering it, if anyone. */
  listenerOf(id: RequestId): ((incoming: Incoming) => void) | undefined {
    return this.#pending.get(id)?.onMessage;
  }

  /** Writes the request, waiting for its answer, the process's exit, or the call's end. */
  #write(
    process: ServerProcess,
    message: JsonRpcRequest,
    end: CallEnd,
    onMessage: ((incoming: Incoming) => void) | undefined,
    settler: Settler,
  ): void {
    const pending = new Pending(message.id, end, onMessage, settler, this.#abandon);
    this.#pending.set(pending.id, pending);
    onEnd(end, pending);
    try {
      // A full pipe: wait for room (a dead process or the abort ends the wait).
      if (!process.write(message)) {
        process
          .send(message, end instanceof AbortSignal ? end : end.signal)
          .catch((error: unknown) => this.#fail(pending, error as Error));
      }
    } catch (error) {
      this.#fail(pending, error as Error);
    }
  }

  /** The call ended before its answer came: its caller stops waiting, the server is told. */
  readonly #abandon = (pending: Pending): void => {
    if (this.#pending.get(pending.id) !== pending) return;
    this.#pending.delete(pending.id);
    this.#abandoned.add(pending.id);
    if (this.#abandoned.size > ABANDONED_KEPT) {
      this.#abandoned.delete(this.#abandoned.values().next().value!);
    }
    const reason = pending.end.reason;
    pending.reject(reason!);
    this.#events.abandoned(pending.id, reason);
  };

  /** The request could not be written. */
  #fail(pending: Pending, error: Error): void {
    if (this.#pending.get(pending.id) === pending) this.#pending.delete(pending.id);
    pending.reject(error);
  }

  /** The generation of the process that runs now, if one does. */
  get running(): number | undefined {
    return this.#process?.alive ? this.#generation : undefined;
  }

  /** Starts the process if none runs; resolves with its generation. */
  async start(signal: AbortSignal): Promise<number> {
    await this.#running(signal);
    return this.#generation;
  }

  /** Sends a notification, or the answer to a server request. */
  async send(message: JsonRpcMessage, signal: AbortSignal): Promise<void> {
    const process = await this.#running(signal);
    await process.send(message, signal);
  }

  /** Stops the server (see ServerProcess.close) and fails what still waits. Never throws. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#failAll(new ClientClosedError({ url: this.label }));
    const process = this.#process ?? (await this.#starting?.catch(() => undefined));
    this.#process = undefined;
    await process?.close();
  }

  /** The running process, started first when none runs. */
  async #running(signal: AbortSignal): Promise<ServerProcess> {
    if (this.#closed) throw new ClientClosedError({ url: this.label });
    if (this.#process?.alive) return this.#process;
    const last = this.#lastExit;
    if (this.#failures >= MAX_RESTARTS && last) {
      // A server that keeps dying before it answers anything will not be helped by one more try.
      throw new ServerExitedError(
        { code: last.exitCode, signal: last.signal, stderr: last.stderr },
        { url: this.label, requestSent: false, retryable: false },
      );
    }
    this.#starting ??= this.#start().finally(() => {
      this.#starting = undefined;
    });
    const started = this.#starting;
    return raceAbort(started, signal);
  }

  async #start(): Promise<ServerProcess> {
    const process = await ServerProcess.start(this.#command, this.#options, {
      message: (incoming) => this.#receive(incoming),
      oversized: (id, error) => this.#oversized(id, error),
      warning: (error) => this.#events.warning(error),
      stderr: (line) => this.#events.stderr(line),
      exit: (error) => this.#exited(process, error),
    });
    this.#generation += 1;
    if (this.#closed) {
      await process.close();
      throw new ClientClosedError({ url: this.label });
    }
    this.#process = process;
    return process;
  }

  #receive(incoming: Incoming): void {
    if (incoming.kind !== 'response') {
      this.#events.incoming(incoming);
      return;
    }
    const { message } = incoming;
    const id = message.id;
    if (id === null) {
      const text = 'error' in message ? message.error.message : '';
      this.#events.warning(
        new MalformedMessageError(`an error for no request: "${text}"`, {
          url: this.label,
        }),
      );
      return;
    }
    const pending = this.#pending.get(id);
    if (pending) {
      this.#pending.delete(id);
      this.#failures = 0;
      pending.resolve(message);
    } else if (!this.#abandoned.delete(id)) {
      this.#events.warning(
        new MalformedMessageError(`response to id ${String(id)}, which no call is waiting for`, {
          url: this.label,
        }),
      );
    }
  }

  #oversized(id: RequestId | undefined, error: ResponseTooLargeError): void {
    const pending = id === undefined ? undefined : this.#pending.get(id);
    if (id !== undefined && pending) {
      this.#pending.delete(id);
      pending.reject(error);
    } else {
      this.#events.warning(error);
    }
  }

  #exited(process: ServerProcess, error: ServerExitedError): void {
    if (this.#process === process) this.#process = undefined;
    this.#failures += 1;
    this.#lastExit = error;
    this.#failAll(error);
    if (!this.#closed) this.#events.exited(error);
  }

  #failAll(error: TransportError | ClientClosedError): void {
    const pending = this.#pending.values();
    this.#pending.clear();
    for (const each of pending) each.reject(onePerCall(error));
  }
}
