/**
 * A legacy tools/call whose SSE answer the test reads message by message, so it can answer the
 * requests the server sends the client on that stream (playing the client by hand).
 */
import { type RpcMessage, rpc, type TestClient } from './client.ts';
import { SseReader } from './sse.ts';

export class CallStream {
  readonly #client: TestClient;
  readonly #reader: SseReader;
  readonly id: number;
  /** Every message read so far, in order. */
  readonly seen: RpcMessage[] = [];

  private constructor(client: TestClient, reader: SseReader, id: number) {
    this.#client = client;
    this.#reader = reader;
    this.id = id;
  }

  /** POSTs tools/call and keeps its SSE answer open for reading. */
  static start(
    client: TestClient,
    name: string,
    args: Record<string, unknown> = {},
  ): Promise<CallStream> {
    return CallStream.open(client, 'tools/call', { name, arguments: args });
  }

  /** POSTs any request and keeps its SSE answer open for reading. */
  static async open(
    client: TestClient,
    method: string,
    params: Record<string, unknown>,
  ): Promise<CallStream> {
    const id = client.nextId();
    const http = await client.post(rpc(id, method, params));
    if (!(http.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      throw new Error(`${method} answered ${http.status} ${await http.text()}`);
    }
    return new CallStream(client, new SseReader(http.body), id);
  }

  /** Reads until a message satisfies `predicate`; throws if the stream ends first. */
  async until(predicate: (message: RpcMessage) => boolean): Promise<RpcMessage> {
    for (;;) {
      const event = await this.#reader.next();
      if (event === undefined) throw new Error('the call stream ended first');
      if (event.data === '') continue;
      const message: RpcMessage = JSON.parse(event.data);
      this.seen.push(message);
      if (predicate(message)) return message;
    }
  }

  /** The next request the server sends the client. */
  nextRequest(): Promise<RpcMessage> {
    return this.until((message) => message.method !== undefined && message.id !== undefined);
  }

  /** Answers a server request by POST, as a client does; the server acknowledges with 202. */
  async answer(
    request: RpcMessage,
    reply: { result: unknown } | { error: unknown },
  ): Promise<void> {
    const ack = await this.#client.post({ jsonrpc: '2.0', id: request.id, ...reply });
    if (ack.status !== 202) throw new Error(`the answer got ${ack.status}`);
  }

  /** The call's own response. */
  response(): Promise<RpcMessage> {
    return this.until((message) => message.method === undefined && message.id === this.id);
  }
}
