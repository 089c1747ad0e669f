/**
 * The official @modelcontextprotocol/sdk server (McpServer over StreamableHTTPServerTransport)
 * on a loopback port: an independent implementation to test the client against. Stateful mode
 * keeps one transport per session and answers with SSE; stateless mode builds a fresh server
 * per request and answers with JSON, as the SDK's own examples do.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface SdkServer extends AsyncDisposable {
  url: string;
  /** Each request's HTTP method and, for a POST, its JSON-RPC method. */
  requests: Array<{ httpMethod: string; method: string | undefined }>;
  close(): Promise<void>;
}

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function buildServer(): McpServer {
  const server = new McpServer(
    { name: 'sdk-interop', version: '1.0.0' },
    { capabilities: { logging: {} } },
  );
  server.registerTool(
    'echo',
    {
      description: 'Echoes text',
      inputSchema: { text: z.string() },
      annotations: { idempotentHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: { a: z.number(), b: z.number() },
      outputSchema: { sum: z.number() },
    },
    async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    }),
  );
  server.registerTool(
    'progress',
    { description: 'Reports progress', inputSchema: { steps: z.number().int() } },
    async ({ steps }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        if (token !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: steps, message: `step ${i}` },
          });
        }
      }
      return { content: [{ type: 'text', text: `done after ${steps} steps` }] };
    },
  );
  server.registerTool('fail', { description: 'Always fails' }, async () => ({
    content: [{ type: 'text', text: 'it failed' }],
    isError: true,
  }));
  server.registerTool('image', { description: 'Returns an image' }, async () => ({
    content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
  }));
  registerAskingTools(server);
  server.registerResource('hello', 'sdk://hello', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, text: 'hello from the sdk' }],
  }));
  server.registerResource(
    'item',
    new ResourceTemplate('sdk://items/{id}', { list: undefined }),
    { mimeType: 'text/plain' },
    async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `item ${String(id)}` }] }),
  );
  server.registerPrompt(
    'greet',
    { description: 'Greets someone', argsSchema: { name: z.string() } },
    ({ name }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }],
    }),
  );
  return server;
}

/**
 * Tools that ask the client something mid-call, each on the call's own stream: elicitation
 * (form with defaults, URL, cancelled by the server), sampling (with and without tools) and roots.
 * Each returns what the client answered as JSON text, or the SDK's error when it refused.
 */
function registerAskingTools(server: McpServer): void {
  const asked = async (ask: () => Promise<unknown>) => {
    try {
      return { content: [{ type: 'text' as const, text: JSON.stringify(await ask()) }] };
    } catch (error) {
      return { content: [{ type: 'text' as const, text: String(error) }], isError: true };
    }
  };
  server.registerTool(
    'ask_profile',
    { description: 'Elicits a profile form with defaults' },
    async (extra) =>
      asked(() =>
        server.server.elicitInput(
          {
            mode: 'form',
            message: 'Your profile',
            requestedSchema: {
              type: 'object',
              properties: {
                name: { type: 'string', title: 'Name' },
                age: { type: 'integer', minimum: 0, default: 30 },
                newsletter: { type: 'boolean', default: false },
                color: { type: 'string', enum: ['red', 'green'], default: 'green' },
              },
              required: ['name'],
            },
          },
          { relatedRequestId: extra.requestId },
        ),
      ),
  );
  server.registerTool(
    'ask_url',
    { description: 'Elicits a URL flow and reports it complete' },
    async (extra) =>
      asked(async () => {
        const elicitationId = randomUUID();
        const result = await server.server.elicitInput(
          { mode: 'url', message: 'Connect', url: 'https://example.com/connect', elicitationId },
          { relatedRequestId: extra.requestId },
        );
        if (result.action === 'accept') {
          await server.server.createElicitationCompletionNotifier(elicitationId)();
        }
        return { ...result, elicitationId };
      }),
  );
  server.registerTool(
    'ask_then_cancel',
    { description: 'Elicits, then cancels its own request after 100 ms' },
    async (extra) =>
      asked(() =>
        server.server.elicitInput(
          {
            message: 'Never mind',
            requestedSchema: { type: 'object', properties: { x: { type: 'string' } } },
          },
          { relatedRequestId: extra.requestId, signal: AbortSignal.timeout(100) },
        ),
      ),
  );
  server.registerTool(
    'summarize',
    { description: 'Samples a summary', inputSchema: { text: z.string(), withTools: z.boolean() } },
    async ({ text, withTools }, extra) =>
      asked(() =>
        server.server.createMessage(
          {
            messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
            maxTokens: 50,
            ...(withTools
              ? {
                  tools: [
                    { name: 'lookup', inputSchema: { type: 'object' as const, properties: {} } },
                  ],
                  toolChoice: { mode: 'auto' as const },
                }
              : {}),
          },
          { relatedRequestId: extra.requestId },
        ),
      ),
  );
  server.registerTool('roots', { description: 'Lists the client roots' }, async (extra) =>
    asked(() => server.server.listRoots(undefined, { relatedRequestId: extra.requestId })),
  );
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startSdkServer(mode: 'stateful' | 'stateless'): Promise<SdkServer> {
  const requests: SdkServer['requests'] = [];
  const served = await serveSdk(buildServer, {
    stateless: mode === 'stateless',
    onRequest: (httpMethod, method) => requests.push({ httpMethod, method }),
  });
  return { ...served, requests, [Symbol.asyncDispose]: served.close };
}

/**
 * Serves 1.x SDK servers on a loopback port: one per session (`build()` for each initialize),
 * or, `stateless`, a fresh one per request answering with JSON, as the SDK's examples do.
 */
export async function serveSdk(
  build: () => McpServer,
  options: {
    stateless?: boolean;
    /** Sees each request's HTTP method and, for a POST, its JSON-RPC method. */
    onRequest?: (httpMethod: string, method: string | undefined) => void;
  } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const closers: Array<() => Promise<void>> = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const method = (body as { method?: unknown } | undefined)?.method;
    options.onRequest?.(req.method ?? '', typeof method === 'string' ? method : undefined);
    if (options.stateless) {
      const server = build();
      // No sessionIdGenerator: the SDK's stateless mode.
      const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      if (typeof id === 'string') {
        res.writeHead(404).end();
        return;
      }
      const server = build();
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      closers.push(() => server.close());
      await server.connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  // Longer than any wait for a client to let go: an idle socket the server closed itself would
  // hide a client that never closes its own.
  http.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const close = async () => {
    await Promise.all(closers.map((closer) => closer().catch(() => {})));
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${port}/mcp`, close };
}
