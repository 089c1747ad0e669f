/**
 * An official-SDK (1.x) server with one tool whose raw input schema is the case lossy adapters
 * get wrong: an `anyOf` of two object shapes, and `$ref`s into `$defs`. Stateless, JSON answers;
 * it records the arguments of every call it receives.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export const ORDER_SCHEMA = {
  type: 'object',
  properties: {
    item: { $ref: '#/$defs/item' },
    delivery: {
      description: 'Either picked up at a store or shipped to an address.',
      anyOf: [
        {
          type: 'object',
          properties: { kind: { const: 'pickup' }, store: { type: 'string' } },
          required: ['kind', 'store'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { kind: { const: 'ship' }, address: { $ref: '#/$defs/address' } },
          required: ['kind', 'address'],
          additionalProperties: false,
        },
      ],
    },
  },
  required: ['item', 'delivery'],
  additionalProperties: false,
  $defs: {
    item: {
      type: 'object',
      properties: { sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
      required: ['sku', 'quantity'],
    },
    address: {
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
      required: ['street', 'city'],
    },
  },
};

export interface OrderServer extends AsyncDisposable {
  url: string;
  /** The arguments of every tools/call, as received. */
  received: unknown[];
  close(): Promise<void>;
}

function buildServer(received: unknown[]): Server {
  const server = new Server({ name: 'orders', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'place_order', description: 'Places an order.', inputSchema: ORDER_SCHEMA }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    received.push(request.params.arguments);
    return { content: [{ type: 'text', text: JSON.stringify(request.params.arguments) }] };
  });
  return server;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startOrderServer(): Promise<OrderServer> {
  const received: unknown[] = [];
  const http = createServer((req, res) => {
    void (async () => {
      const server = buildServer(received);
      const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(
        req,
        res,
        req.method === 'POST' ? await readBody(req) : undefined,
      );
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  http.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const close = async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${port}/mcp`, received, close, [Symbol.asyncDispose]: close };
}
