/**
 * The MCP-lite HTTP binding (seed 000 §4): POST only, JSON. Discovery and calls have endpoints of
 * their own (`endpoints.ts`); a call is a JSON-RPC `tools/call` whose answer is JSON, or named SSE
 * events when the caller follows partials (`stream.ts`).
 */
import type { Deadline } from '../../../core/deadline.ts';
import { HttpStatusError } from '../../../core/errors.ts';
import { request } from '../../../core/jsonrpc.ts';
import { fromJsonRpcError } from '../../../core/wire-codes.ts';
import { readJsonReply } from '../../../wire/channels/json-reply.ts';
import { send } from '../../../wire/transport/http.ts';
import type {
  BindingListing,
  LiteBinding,
  LiteCall,
  LiteResponse,
  McpLiteConfig,
} from '../binding.ts';
import { Endpoints } from './endpoints.ts';
import { listAt } from './listing.ts';
import { readStream } from './stream.ts';

/** A bare 404 or 405 from a call endpoint: no endpoint by this name, so the other is tried. */
const NOT_HERE = new Set([404, 405]);

export class HttpBinding implements LiteBinding {
  readonly url: string;
  readonly #config: McpLiteConfig;
  readonly #endpoints: Endpoints;
  #nextId = 0;

  constructor(config: McpLiteConfig) {
    this.url = config.url;
    this.#config = config;
    this.#endpoints = new Endpoints(config.url);
  }

  async list(deadline: Deadline): Promise<BindingListing> {
    const misses: string[] = [];
    for (const url of this.#endpoints.listing) {
      const listing = await listAt(this.#config, url, deadline);
      if (listing.kind === 'tools') {
        this.#endpoints.listedAt(url);
        return listing;
      }
      misses.push(listing.summary);
    }
    return { kind: 'misses', misses };
  }

  async call(call: LiteCall): Promise<LiteResponse> {
    const message = request(`call-${this.#nextId++}`, 'tools/call', call.params);
    const attempt = async (url: string): Promise<LiteResponse> => {
      const answer = await this.#post(url, message, call);
      this.#endpoints.calledAt(url);
      return answer;
    };
    const urls = this.#endpoints.calls;
    for (const url of urls.slice(0, -1)) {
      try {
        return await attempt(url);
      } catch (error) {
        if (!(error instanceof HttpStatusError && NOT_HERE.has(error.status ?? 0))) throw error;
      }
    }
    return attempt(urls.at(-1)!);
  }

  async close(): Promise<void> {}

  async #post(
    url: string,
    message: ReturnType<typeof request>,
    call: LiteCall,
  ): Promise<LiteResponse> {
    const config = this.#config;
    const { deadline } = call;
    const where = { url, method: 'tools/call', tool: call.tool };
    const response = await send(config.dispatcher, {
      url,
      method: 'POST',
      headers: {
        ...config.headers,
        // Every call takes a stream: a server that streams sends heartbeats, which keep the
        // call's deadline alive whether or not the caller follows its progress.
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      body: JSON.stringify(message),
      signal: deadline.signal,
    });
    if (response.status === 200 && response.mediaType === 'text/event-stream') {
      const streamed = await readStream(response, {
        where,
        maxEventSize: config.maxEventSize,
        deadline,
        partials: call.partials,
      });
      return streamed.kind === 'error'
        ? streamed
        : { kind: 'result', url, result: streamed.result };
    }
    const answer = await readJsonReply(response, message, {
      url,
      tool: call.tool,
      maxResponseBytes: config.maxResponseBytes,
      signal: deadline.signal,
      route: () => {},
    });
    if ('error' in answer) {
      return {
        kind: 'error',
        error: fromJsonRpcError(answer.error, { ...where, status: response.status }),
      };
    }
    return { kind: 'result', url, result: answer.result };
  }
}
