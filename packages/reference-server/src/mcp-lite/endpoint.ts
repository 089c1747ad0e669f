/**
 * The MCP-lite HTTP binding (seed 000 §4) under `/mcp-lite/v1`: POST only, JSON. Discovery at
 * `/listtools` (a bare array, as the seed's text says) and `/tools` (`{ tools }`, as its example
 * shows); calls as JSON-RPC `tools/call` at `/calltools` and `/rpc`. A tool that streams, called by a
 * client that accepts `text/event-stream`, answers with named events: `message`, `heartbeat`,
 * `done`, `error`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerCore } from '../context.ts';
import { accepts, header, sendEmpty, sendJson } from '../http-util.ts';
import { ErrorCode, errorMessage, isObject, RpcError } from '../jsonrpc.ts';
import { parseJson, readBody } from '../post.ts';
import type { LiteRedeem, ReceivedRequest } from '../types.ts';
import { PromiseStore } from './promises.ts';
import { assemble, callTool, type Reply, type StreamEvent, toolDefinitions } from './tools.ts';

export const MCP_LITE_BASE = '/mcp-lite/v1';

const LISTING: Record<string, 'array' | 'object'> = { listtools: 'array', tools: 'object' };
const CALLS = new Set(['calltools', 'rpc']);

export class McpLiteEndpoint {
  readonly #promises = new PromiseStore();

  handles(path: string): boolean {
    return path === MCP_LITE_BASE || path.startsWith(`${MCP_LITE_BASE}/`);
  }

  async serve(
    core: ServerCore,
    req: IncomingMessage,
    res: ServerResponse,
    entry: ReceivedRequest,
    path: string,
  ): Promise<void> {
    const name = path.slice(MCP_LITE_BASE.length + 1).replace(/\/+$/, '');
    const listing = LISTING[name];
    if (listing === undefined && !CALLS.has(name)) {
      sendEmpty(res, 404);
      return;
    }
    if (req.method !== 'POST') {
      sendEmpty(res, 405, { allow: 'POST' });
      return;
    }
    const body = await readBody(req);
    const parsed = body === undefined ? undefined : parseJson(body);
    entry.body = parsed?.value;
    if (parsed === undefined) {
      sendJson(res, 400, errorMessage(null, ErrorCode.ParseError, 'Parse error'));
      return;
    }
    if (listing !== undefined) {
      if (!isObject(parsed.value)) {
        sendJson(
          res,
          400,
          errorMessage(null, ErrorCode.InvalidRequest, 'Invalid request: expected {}'),
        );
        return;
      }
      const tools = toolDefinitions();
      sendJson(res, 200, listing === 'array' ? tools : { tools });
      return;
    }
    await this.#call(core, req, res, parsed.value);
  }

  /** Every redeem, as tests observe it. */
  get redeems(): LiteRedeem[] {
    return this.#promises.redeems;
  }

  clear(): void {
    this.#promises.clear();
  }

  async #call(
    core: ServerCore,
    req: IncomingMessage,
    res: ServerResponse,
    message: unknown,
  ): Promise<void> {
    if (
      !isObject(message) ||
      message['jsonrpc'] !== '2.0' ||
      typeof message['method'] !== 'string' ||
      !(typeof message['id'] === 'string' || typeof message['id'] === 'number')
    ) {
      sendJson(res, 400, errorMessage(null, ErrorCode.InvalidRequest, 'Invalid request'));
      return;
    }
    const id = message['id'];
    let reply: Reply;
    try {
      if (message['method'] !== 'tools/call') {
        throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${message['method']}`);
      }
      reply = callTool(message['params'], this.#promises);
    } catch (error) {
      const rpc =
        error instanceof RpcError ? error : new RpcError(ErrorCode.InternalError, 'Internal error');
      sendJson(res, 200, errorMessage(id, rpc.code, rpc.message, rpc.data));
      return;
    }
    // A reply that streams is streamed to a client that takes a stream; a plain result goes as
    // JSON to a client that takes JSON, whatever else it accepts.
    const accept = header(req, 'accept');
    const streamed = reply.kind === 'stream' || !accepts(accept, 'application/json');
    if (streamed && accepts(accept, 'text/event-stream')) {
      await stream(core, res, reply);
      return;
    }
    const events = reply.kind === 'stream' ? reply.events : [];
    const failed = events.find((event) => event.event === 'error');
    if (failed) {
      const error = failed.data;
      sendJson(
        res,
        200,
        errorMessage(id, Number(error['code']), String(error['message']), error['data']),
      );
      return;
    }
    sendJson(res, 200, {
      jsonrpc: '2.0',
      id,
      result: reply.kind === 'result' ? reply.result : assemble(events),
    });
  }
}

/** Writes the reply as named events; a plain result is one `done` event carrying all of it. */
async function stream(core: ServerCore, res: ServerResponse, reply: Reply): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const events: StreamEvent[] =
    reply.kind === 'result' ? [{ event: 'done', data: reply.result }] : reply.events;
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const signal = AbortSignal.any([core.closing, gone.signal]);
  try {
    for (const event of events) {
      if (event.event === 'heartbeat') {
        await sleep(event.delayMs, undefined, { signal });
        if (event.quiet) continue;
      }
      res.write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
    }
    res.end();
  } catch {
    // The client went away or the server is closing: nothing is left to say.
    res.destroy();
  }
}
