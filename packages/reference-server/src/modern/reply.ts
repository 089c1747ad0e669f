import type { ServerResponse } from 'node:http';
import type { JsonObject } from '../jsonrpc.ts';

/**
 * The answer to one 2026-07-28 request. It stays a plain JSON answer until the handler has
 * something to say before the response (progress, a log message); only then does it become an
 * SSE stream scoped to the request. The client closing the connection first is the request's
 * cancellation, so `cancelled` aborts then.
 */
export class ModernReply {
  readonly #res: ServerResponse;
  readonly #sseAllowed: boolean;
  readonly #cancel = new AbortController();
  #streaming = false;
  #done = false;

  /** `sseAllowed`: the client accepts `text/event-stream` and the endpoint may stream. */
  constructor(res: ServerResponse, sseAllowed: boolean) {
    this.#res = res;
    this.#sseAllowed = sseAllowed;
    res.on('close', () => {
      if (!this.#done) this.#cancel.abort();
      this.#done = true;
    });
  }

  /** Aborted when the client went away before the answer was complete. */
  get cancelled(): AbortSignal {
    return this.#cancel.signal;
  }

  /** Whether nothing more can be written: answered, or the connection is gone. */
  get finished(): boolean {
    return this.#done;
  }

  /** Switches to an SSE stream now (subscriptions/listen wants its headers at once). */
  stream(): boolean {
    if (this.#done || !this.#sseAllowed) return false;
    if (!this.#streaming) {
      this.#streaming = true;
      this.#res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        // Proxies such as nginx would otherwise hold events back.
        'x-accel-buffering': 'no',
      });
      this.#res.flushHeaders();
    }
    return true;
  }

  /** Sends a message about the request before its response; false when it cannot be streamed. */
  send(message: JsonObject): boolean {
    if (!this.stream()) return false;
    this.#res.write(`data: ${JSON.stringify(message)}\n\n`);
    return true;
  }

  /** An SSE comment, which keeps idle intermediaries from closing a quiet stream. */
  keepAlive(): void {
    if (this.#streaming && !this.#done) this.#res.write(':\n\n');
  }

  /** Sends the final message and ends the answer; `status` only applies to a JSON answer. */
  finish(status: number, message: JsonObject): void {
    if (this.#done) return;
    this.#done = true;
    const payload = JSON.stringify(message);
    if (this.#streaming) {
      this.#res.end(`data: ${payload}\n\n`);
      return;
    }
    this.#res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(payload)),
    });
    this.#res.end(payload);
  }

  /** Resolves once the answer has been handed to the socket (or the socket is gone). */
  flushed(): Promise<void> {
    const res = this.#res;
    if (res.writableFinished || res.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      res.once('finish', resolve);
      res.once('close', resolve);
    });
  }
}
