/**
 * The official 1.x SDK server over the deprecated HTTP+SSE transport (2024-11-05): GET /sse opens
 * the stream and names /messages?sessionId=… as the place to POST. Anything else is 404, as on a
 * server that predates Streamable HTTP.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { z } from 'zod';

export interface SdkSseServer extends AsyncDisposable {
  /** The SSE URL a client is given. */
  url: string;
  requests: Array<{ method: string; path: string }>;
  /** `initialize` requests the server has answered, over every stream. */
  readonly initializes: number;
  /** Calls of the `wait` tool running now, and those the client cancelled. */
  readonly waiting: number;
  readonly cancelled: number;
  /** Ends every open event stream, as a server that restarts does. */
  dropStreams(): void;
  close(): Promise<void>;
}

export async function startSdkSseServer(): Promise<SdkSseServer> {
  const transports = new Map<string, SSEServerTransport>();
  const servers: McpServer[] = [];
  const requests: Array<{ method: string; path: string }> = [];
  const streams = new Set<ServerResponse>();
  const counts = { initializes: 0, waiting: 0, cancelled: 0 };
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ method: req.method ?? '', path: url.pathname });
    if (req.method === 'GET' && url.pathname === '/sse') {
      const server = new McpServer({ name: 'sdk-sse', version: '1.0.0' });
      server.registerTool(
        'echo',
        { description: 'Echoes text', inputSchema: { text: z.string() } },
        async ({ text }) => ({
          content: [{ type: 'text', text }],
        }),
      );
      server.registerTool(
        'progress',
        { inputSchema: { steps: z.number().int() } },
        async ({ steps }, extra) => {
          const token = extra._meta?.progressToken;
          for (let i = 1; i <= steps; i++) {
            if (token !== undefined)
              await extra.sendNotification({
                method: 'notifications/progress',
                params: { progressToken: token, progress: i, total: steps },
              });
          }
          return { content: [{ type: 'text', text: `done after ${steps} steps` }] };
        },
      );
      server.registerTool('wait', { description: 'Runs until cancelled' }, async (extra) => {
        counts.waiting += 1;
        await new Promise((resolve) => extra.signal.addEventListener('abort', resolve));
        counts.waiting -= 1;
        counts.cancelled += 1;
        return { content: [] };
      });
      server.server.oninitialized = () => {
        counts.initializes += 1;
      };
      const transport = new SSEServerTransport('/messages', res);
      streams.add(res);
      res.on('close', () => streams.delete(res));
      transports.set(transport.sessionId, transport);
      servers.push(server);
      res.on('close', () => transports.delete(transport.sessionId));
      void server.connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get('sessionId') ?? '');
    if (req.method === 'POST' && url.pathname === '/messages' && transport) {
      void transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const close = async () => {
    await Promise.all(servers.map((server) => server.close().catch(() => {})));
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${port}/sse`,
    requests,
    get initializes() {
      return counts.initializes;
    },
    get waiting() {
      return counts.waiting;
    },
    get cancelled() {
      return counts.cancelled;
    },
    dropStreams: () => {
      for (const stream of streams) stream.end();
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
