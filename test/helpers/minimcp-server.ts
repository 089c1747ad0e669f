/**
 * A fixture that behaves exactly like MiniMCP's two HTTP transports (seed 003), as its source
 * does it:
 *
 * - `http`: POST only, answers JSON only, keeps no session. A notification gets 202 with no body;
 *   a request it cannot accept gets an HTTP error whose body is a JSON-RPC error without an id;
 *   a JSON-RPC error answer is sent with the status it maps to (404 for an unknown method).
 * - `smart`: the same, but a request whose handler sends notifications first (progress, a log
 *   message) is answered with an SSE stream (`\r\n` line endings, as sse-starlette writes them)
 *   carrying them and then the response; any other request is answered with plain JSON.
 *
 * Both check Accept, Content-Type and MCP-Protocol-Version (except on initialize; a missing header
 * means 2025-03-26), speak 2024-11-05, 2025-03-26 and 2025-06-18, declare no list changes, no
 * subscriptions and no logging, and answer GET (and anything but POST) with 405 and `Allow: POST`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type MiniMcpMode = 'http' | 'smart';

export interface MiniMcpRequest {
  httpMethod: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | undefined;
  status: number;
}

export interface MiniMcpServer extends AsyncDisposable {
  url: string;
  /** Every HTTP request, in order, with the status it got. */
  requests: MiniMcpRequest[];
  close(): Promise<void>;
}

const SUPPORTED = ['2024-11-05', '2025-03-26', '2025-06-18'];
const LATEST = '2025-06-18';
const DEFAULT_NEGOTIATED = '2025-03-26';

type Json = Record<string, unknown>;
type Send = (message: Json) => void;

const TOOLS = [
  {
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
  },
  {
    name: 'countdown',
    description: 'Counts down from n, reporting progress and logging when done.',
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
  },
];

export async function startMiniMcpServer(mode: MiniMcpMode): Promise<MiniMcpServer> {
  const requests: MiniMcpRequest[] = [];
  const server = createServer((req, res) => {
    void serve(mode, req, res, requests).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${port}/mcp`, requests, close, [Symbol.asyncDispose]: close };
}

async function serve(
  mode: MiniMcpMode,
  req: IncomingMessage,
  res: ServerResponse,
  requests: MiniMcpRequest[],
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  let body: Json | undefined;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = undefined;
  }
  const entry: MiniMcpRequest = {
    httpMethod: req.method ?? '',
    headers: req.headers,
    body,
    status: 0,
  };
  requests.push(entry);
  const reply = (status: number, payload?: Json, headers: Record<string, string> = {}) => {
    entry.status = status;
    const content = payload === undefined ? '' : JSON.stringify(payload);
    res.writeHead(
      status,
      payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
    );
    res.end(content);
  };
  if (req.method !== 'POST') {
    reply(405, undefined, { 'content-type': 'application/json', allow: 'POST' });
    return;
  }
  const accepted = (req.headers.accept ?? '')
    .split(',')
    .map((t) => t.split(';')[0]!.trim().toLowerCase());
  const needed =
    mode === 'smart' ? ['application/json', 'text/event-stream'] : ['application/json'];
  if (!needed.every((type) => accepted.includes(type))) {
    reply(406, noIdError(`Not Acceptable: Client must accept ${needed.join(' and ')}`));
    return;
  }
  if (
    (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json'
  ) {
    reply(415, noIdError('Unsupported Media Type: Content-Type must be application/json'));
    return;
  }
  const version = req.headers['mcp-protocol-version'] ?? DEFAULT_NEGOTIATED;
  if (body?.['method'] !== 'initialize' && !SUPPORTED.includes(String(version))) {
    reply(
      400,
      noIdError(
        `Bad Request: Unsupported protocol version: ${version}. Supported versions: ${SUPPORTED.join(', ')}`,
      ),
    );
    return;
  }
  if (body === undefined || body['jsonrpc'] !== '2.0' || typeof body['method'] !== 'string') {
    reply(400, noIdError('Message to MCP server must be a request or notification'));
    return;
  }
  if (!('id' in body)) {
    reply(202);
    return;
  }
  // A handler's notifications turn the answer into a stream, in smart mode; over plain HTTP
  // there is nowhere to send them.
  const streamed: Json[] = [];
  const send: Send | undefined = mode === 'smart' ? (message) => streamed.push(message) : undefined;
  const response = await handle(body, send);
  if (streamed.length > 0) {
    entry.status = 200;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
    });
    for (const message of [...streamed, response])
      res.write(`data: ${JSON.stringify(message)}\r\n\r\n`);
    res.end();
    return;
  }
  const code = (response['error'] as { code?: number } | undefined)?.code;
  reply(code === undefined ? 200 : (STATUS_OF[code] ?? 500), response);
}

const STATUS_OF: Record<number, number> = {
  [-32700]: 400,
  [-32600]: 400,
  [-32602]: 400,
  [-32601]: 404,
  [-32603]: 500,
};

/** What MiniMCP sends when it cannot tell which request it refuses: an error without an id. */
function noIdError(message: string): Json {
  return { jsonrpc: '2.0', error: { code: -32600, message } };
}

async function handle(request: Json, send: Send | undefined): Promise<Json> {
  const id = request['id'];
  const params = (request['params'] ?? {}) as Json;
  const result = (value: Json) => ({ jsonrpc: '2.0', id, result: value });
  const error = (code: number, message: string) => ({
    jsonrpc: '2.0',
    id,
    error: { code, message },
  });
  switch (request['method']) {
    case 'initialize': {
      const asked = String(params['protocolVersion']);
      return result({
        protocolVersion: SUPPORTED.includes(asked) ? asked : LATEST,
        capabilities: {
          prompts: { listChanged: false },
          resources: { subscribe: false, listChanged: false },
          tools: { listChanged: false },
        },
        serverInfo: { name: 'minimcp-fixture', version: '0.1.0' },
      });
    }
    case 'ping':
      return result({});
    case 'tools/list':
      return result({ tools: TOOLS });
    case 'tools/call': {
      const args = (params['arguments'] ?? {}) as Json;
      if (params['name'] === 'add') {
        const sum = Number(args['a']) + Number(args['b']);
        return result({ content: [{ type: 'text', text: String(sum) }], isError: false });
      }
      if (params['name'] === 'countdown') {
        const token = ((params['_meta'] ?? {}) as Json)['progressToken'];
        const n = Number(args['n']);
        for (let step = 1; step <= n; step++) {
          if (token !== undefined)
            send?.({
              jsonrpc: '2.0',
              method: 'notifications/progress',
              params: { progressToken: token, progress: step, total: n },
            });
        }
        send?.({
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { level: 'info', data: `counted down from ${n}` },
        });
        return result({ content: [{ type: 'text', text: 'liftoff' }], isError: false });
      }
      return result({
        content: [{ type: 'text', text: `Unknown tool: ${String(params['name'])}` }],
        isError: true,
      });
    }
    default:
      return error(-32601, `Method not found for request type ${String(request['method'])}`);
  }
}
