/**
 * A hostile MCP server on a loopback port: plain node:http, speaking just enough Streamable HTTP
 * (2025-11-25, JSON answers, no GET stream) for the client to list and call. Each answer's result
 * is written as raw JSON text the test builds, so it can be larger or deeper than any
 * JSON.stringify would allow, and the bytes written are counted.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server was sent. */
export interface HostileRequest {
  id: number | string;
  method: string;
  params: Record<string, unknown> | undefined;
}

/** The JSON text of the request's result; undefined answers `{}`. */
export type Answer = (request: HostileRequest) => string | undefined;

export interface HostileServer extends AsyncDisposable {
  url: string;
  /** Every request, in order (notifications left out). */
  requests: HostileRequest[];
  /** Bytes of result bodies written so far. */
  bytesSent: number;
  close(): Promise<void>;
}

export async function startHostileServer(answer: Answer): Promise<HostileServer> {
  const requests: HostileRequest[] = [];
  const state = { bytesSent: 0 };
  const server = createServer(async (req, res) => {
    if (req.method === 'GET') return void res.writeHead(405).end();
    if (req.method === 'DELETE') return void res.writeHead(204).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<HostileRequest>;
    if (message.id === undefined) return void res.writeHead(202).end();
    const request = { id: message.id, method: String(message.method), params: message.params };
    requests.push(request);
    const result =
      request.method === 'initialize'
        ? JSON.stringify({
            protocolVersion: '2025-11-25',
            capabilities: { tools: {}, resources: {}, prompts: {} },
            serverInfo: { name: 'hostile', version: '1.0.0' },
          })
        : (answer(request) ?? '{}');
    const body = `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"result":${result}}`;
    state.bytesSent += Buffer.byteLength(body);
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'h-1' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    requests,
    get bytesSent() {
      return state.bytesSent;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
