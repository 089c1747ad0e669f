/**
 * The request gate (http.ts `RequestGate`) as an undici interceptor: `withGate` gives back the
 * dispatcher composed with it, a Dispatcher like any other, so no dialect knows credentials exist.
 * Each request waits for the gate's headers; a 401 or 403 is held back (bounded) and put to the
 * gate, which may send the request again with fresh headers or let the refusal through as it came.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';
import { ResponseTooLargeError } from '../../core/errors.ts';
import {
  CarriedError,
  HTTP_REQUEST,
  type HttpMethod,
  type HttpRequest,
  MAX_GATE_ROUNDS,
  type Refusal,
  type RequestGate,
  type SentOptions,
} from './http.ts';

/** The gate behind each dispatcher `withGate` made: the gRPC binding sends outside undici. */
const gates = new WeakMap<Dispatcher, RequestGate>();

/** `dispatcher`, with every request sent through it passing `gate`. */
export function withGate(
  dispatcher: Dispatcher,
  gate: RequestGate,
  maxResponseBytes: number,
): Dispatcher {
  const gated = dispatcher.compose(gateInterceptor(gate, maxResponseBytes));
  gates.set(gated, gate);
  return gated;
}

/** The gate a dispatcher's requests pass, if any: a channel that does not send through it asks it. */
export function gateOf(dispatcher: Dispatcher): RequestGate | undefined {
  return gates.get(dispatcher);
}

/** The interceptor itself; a refusal's body is held up to `maxResponseBytes`, never more. */
export function gateInterceptor(
  gate: RequestGate,
  maxResponseBytes: number,
): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    new GatedRequest(gate, maxResponseBytes, dispatch, options, handler).start();
    // Asynchronous from here (the gate may take its time), as undici's dns interceptor is.
    return true;
  };
}

/** A 401 or 403 held back while the gate decides. */
interface Held {
  status: number;
  headers: IncomingHttpHeaders;
  statusMessage: string | undefined;
  chunks: Buffer[];
  size: number;
  trailers: IncomingHttpHeaders;
  /** Its body grew past the bound: dropped, and the connection aborted. */
  overflowed: boolean;
}

/**
 * asking: the gate has the request (its headers, or a refusal), nothing on the wire.
 * sent: on the wire, no answer yet. held: a refusal coming in, kept here. passed: an answer going
 * to the handler. ended: the handler has had its last callback.
 */
type State = 'asking' | 'sent' | 'held' | 'passed' | 'ended';

/** A request that never ends: for one sent to the gated dispatcher without `send`. */
const NEVER = new AbortController().signal;

/**
 * One request through the gate: the handler of each round sent to the wire, and the one controller
 * its own handler sees for all of them (as undici's retry handler does), so that an abort reaches
 * it while the gate is still deciding.
 */
class GatedRequest implements Dispatcher.DispatchHandler, Dispatcher.DispatchController {
  readonly #gate: RequestGate;
  readonly #limit: number;
  readonly #dispatch: Dispatcher['dispatch'];
  readonly #options: Dispatcher.DispatchOptions;
  readonly #handler: Dispatcher.DispatchHandler;
  /** One object for every round: a gate may remember a request it has seen (bearer renewal). */
  readonly #request: HttpRequest;
  #round = 1;
  #state: State = 'asking';
  /** The controller of the round on the wire. */
  #target: Dispatcher.DispatchController | null = null;
  #held: Held | null = null;
  #paused = false;
  #reason: Error | null = null;

  constructor(
    gate: RequestGate,
    limit: number,
    dispatch: Dispatcher['dispatch'],
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ) {
    this.#gate = gate;
    this.#limit = limit;
    this.#dispatch = dispatch;
    this.#options = options;
    this.#handler = handler;
    this.#request = (options as SentOptions)[HTTP_REQUEST] ?? describe(options);
  }

  start(): void {
    // The handler gets its controller now: an abort while the gate decides must reach us.
    this.#handler.onRequestStart?.(this, null);
    if (this.#state !== 'ended') this.#ask();
  }

  #ask(): void {
    let extra: Record<string, string> | Promise<Record<string, string>>;
    try {
      extra = this.#gate.headers(this.#request);
    } catch (error) {
      this.#end(new CarriedError(error));
      return;
    }
    // A fixed token answers at once: the request goes out in this same turn.
    if (extra instanceof Promise) {
      extra.then(
        (headers) => this.#send(headers),
        (error: unknown) => this.#end(new CarriedError(error)),
      );
    } else {
      this.#send(extra);
    }
  }

  #send(extra: Record<string, string>): void {
    if (this.#state === 'ended') return;
    this.#state = 'sent';
    this.#target = null;
    const options = this.#options;
    try {
      this.#dispatch({ ...options, headers: withHeaders(options.headers, extra) }, this);
    } catch (error) {
      this.#end(error as Error);
    }
  }

  /** The refusal is all here (or too large to keep): the gate says what becomes of it. */
  #judge(held: Held): void {
    this.#state = 'asking';
    this.#target = null;
    const refusal: Refusal = { status: held.status, header: (name) => first(held.headers[name]) };
    let again: Promise<boolean>;
    try {
      again = this.#gate.refused(this.#request, refusal);
    } catch (error) {
      this.#end(new CarriedError(error));
      return;
    }
    again.then(
      (yes) => {
        if (this.#state === 'ended') return;
        this.#held = null;
        if (!yes) {
          this.#replay(held);
          return;
        }
        this.#round++;
        this.#ask();
      },
      (error: unknown) => this.#end(new CarriedError(error)),
    );
  }

  /** The refusal stands: the handler gets it as the server sent it. */
  #replay(held: Held): void {
    if (held.overflowed) {
      // What the dialect would have said on reading it.
      const url = this.#request.url;
      const error = new ResponseTooLargeError('body', this.#limit, { url, status: held.status });
      this.#end(new CarriedError(error));
      return;
    }
    const handler = this.#handler;
    this.#state = 'passed';
    handler.onResponseStart?.(this, held.status, held.headers, held.statusMessage);
    for (const chunk of held.chunks) {
      if (this.#state !== 'passed') return;
      handler.onResponseData?.(this, chunk);
    }
    if (this.#state !== 'passed') return;
    this.#state = 'ended';
    handler.onResponseEnd?.(this, held.trailers);
  }

  /** The handler's last callback: an error, once. */
  #end(error: Error): void {
    if (this.#state === 'ended') return;
    this.#state = 'ended';
    this.#held = null;
    this.#handler.onResponseError?.(this, error);
  }

  // What the wire tells each round.

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.#state === 'ended') {
      // Aborted while queued in the pool: it never goes out.
      controller.abort(this.#reason ?? new Error('the request was abandoned'));
      return;
    }
    this.#target = controller;
  }

  onRequestUpgrade(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    socket: Duplex,
  ): void {
    this.#state = 'ended';
    this.#handler.onRequestUpgrade?.(this, statusCode, headers, socket);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    if (this.#state !== 'sent') return;
    if ((statusCode === 401 || statusCode === 403) && this.#round < MAX_GATE_ROUNDS) {
      const held: Held = {
        status: statusCode,
        headers,
        statusMessage,
        chunks: [],
        size: 0,
        trailers: {},
        overflowed: false,
      };
      this.#state = 'held';
      this.#held = held;
      // Declared too large: not one byte of it is read.
      if (Number(headers['content-length']) > this.#limit) this.#overflow(held, controller);
      return;
    }
    // Interim answers (1xx) go through as they are; the final one is passed on whole.
    if (statusCode >= 200) this.#state = 'passed';
    this.#handler.onResponseStart?.(this, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#state === 'passed') {
      this.#handler.onResponseData?.(this, chunk);
      return;
    }
    const held = this.#held;
    if (this.#state !== 'held' || !held || held.overflowed) return;
    held.size += chunk.length;
    if (held.size > this.#limit) this.#overflow(held, controller);
    else held.chunks.push(chunk);
  }

  onResponseEnd(_controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    if (this.#state === 'passed') {
      this.#state = 'ended';
      this.#handler.onResponseEnd?.(this, trailers);
      return;
    }
    const held = this.#held;
    if (this.#state !== 'held' || !held) return;
    held.trailers = trailers;
    this.#judge(held);
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    const held = this.#held;
    // The refusal we cut short: the gate still decides, on its status and headers.
    if (this.#state === 'held' && held?.overflowed) {
      this.#judge(held);
      return;
    }
    this.#end(error);
  }

  /** Drops a refusal's body that outgrew the bound and closes its connection. */
  #overflow(held: Held, controller: Dispatcher.DispatchController): void {
    held.overflowed = true;
    held.chunks = [];
    // undici answers the abort with onResponseError, where the gate is asked.
    controller.abort(
      new ResponseTooLargeError('body', this.#limit, {
        url: this.#request.url,
        status: held.status,
      }),
    );
  }

  // The controller the handler holds, the same for every round.

  get aborted(): boolean {
    return this.#reason !== null;
  }

  get paused(): boolean {
    return this.#paused;
  }

  get reason(): Error | null {
    return this.#reason;
  }

  get rawHeaders(): NonNullable<Dispatcher.DispatchController['rawHeaders']> | null {
    return this.#target?.rawHeaders ?? null;
  }

  get rawTrailers(): NonNullable<Dispatcher.DispatchController['rawTrailers']> | null {
    return this.#target?.rawTrailers ?? null;
  }

  abort(reason: Error): void {
    if (this.#reason || this.#state === 'ended') return;
    this.#reason = reason;
    const live = this.#target;
    this.#target = null;
    // Ended here and now, whether a round is on the wire or the gate is still deciding; what the
    // aborted round says afterwards is not heard.
    this.#end(reason);
    live?.abort(reason);
  }

  pause(): void {
    this.#paused = true;
    this.#target?.pause();
  }

  resume(): void {
    this.#paused = false;
    this.#target?.resume();
  }
}

/** The request a gate reads, for one that did not come through `send`. */
function describe(options: Dispatcher.DispatchOptions): HttpRequest {
  const given = (options as { signal?: unknown }).signal;
  const signal = given instanceof AbortSignal ? given : NEVER;
  const headers = isRecord(options.headers) ? (options.headers as Record<string, string>) : {};
  return {
    url: `${String(options.origin ?? '').replace(/\/$/, '')}${options.path}`,
    method: options.method as HttpMethod,
    headers,
    signal,
  };
}

/** The request's headers with the gate's over them, in the form they came in. */
function withHeaders(
  headers: Dispatcher.DispatchOptions['headers'],
  extra: Record<string, string>,
): NonNullable<Dispatcher.DispatchOptions['headers']> {
  if (headers == null) return extra;
  if (isRecord(headers)) return { ...headers, ...extra };
  // undici's other forms: a flat array of names and values, or an iterable of pairs.
  const flat: string[] = [];
  if (Array.isArray(headers) && typeof headers[0] !== 'object') flat.push(...(headers as string[]));
  else for (const [name, value] of headers as Iterable<[string, string]>) flat.push(name, value);
  for (const name of Object.keys(extra)) flat.push(name, extra[name]!);
  return flat;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !(Symbol.iterator in value);
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
