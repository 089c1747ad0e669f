/**
 * The official v2 server (`@modelcontextprotocol/server`) on a loopback port, in the three ways
 * it can be served:
 *
 * - `dual-era`: `createMcpHandler(factory)`, its recommended entry point. 2026-07-28 requests are
 *   served by the modern path; 2025-era requests (`initialize` and what follows) fall back to
 *   stateless legacy serving, a fresh server per request, no session id, no GET stream.
 * - `modern-only`: `createMcpHandler(factory, { legacy: 'reject' })`, strict 2026-07-28.
 * - `stateful`: one `WebStandardStreamableHTTPServerTransport` with a session id generator per
 *   session, the 2025-era stateful serving v1 users migrate from.
 */
import { randomUUID } from 'node:crypto';
import {
  acceptedContent,
  completable,
  createMcpHandler,
  inputRequired,
  inputResponse,
  McpServer,
  ResourceTemplate,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { type LoopbackServer, serveFetch } from './fetch-server.ts';

export type V2Mode = 'dual-era' | 'modern-only' | 'stateful';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const COLOURS = ['red', 'green', 'blue', 'black'];

export function buildV2Server(): McpServer {
  const server = new McpServer(
    { name: 'v2-interop', version: '2.0.0' },
    { capabilities: { logging: {} } },
  );
  server.registerTool(
    'echo',
    {
      description: 'Echoes text',
      inputSchema: z.object({ text: z.string() }),
      annotations: { idempotentHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    async ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    }),
  );
  server.registerTool('image', { description: 'Returns an image' }, async () => ({
    content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
  }));
  server.registerTool('fail', { description: 'Reports a failure as a result' }, async () => ({
    content: [{ type: 'text', text: 'it failed' }],
    isError: true,
  }));
  server.registerTool('throw', { description: 'Throws' }, async () => {
    throw new Error('it threw');
  });
  server.registerTool(
    'progress',
    { description: 'Reports progress', inputSchema: z.object({ steps: z.number().int() }) },
    async ({ steps }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        if (token !== undefined) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: steps, message: `step ${i}` },
          });
        }
      }
      return { content: [{ type: 'text', text: `done after ${steps} steps` }] };
    },
  );
  server.registerTool(
    'log',
    { description: 'Logs a message', inputSchema: z.object({ text: z.string() }) },
    async ({ text }, ctx) => {
      await ctx.mcpReq.log('info', text, 'v2-interop');
      return { content: [{ type: 'text', text: 'logged' }] };
    },
  );
  // Asking the client at 2026-07-28 is multi-round-trip: input_required, then the same call
  // again with the answers (the SDK's inputRequired builder and acceptedContent reader).
  const confirmation = z.object({ confirm: z.boolean() });
  server.registerTool(
    'deploy',
    { description: 'Deploys after the user confirms', inputSchema: z.object({ env: z.string() }) },
    async ({ env }, ctx) => {
      if (inputResponse(ctx.mcpReq.inputResponses, 'confirm').kind === 'missing') {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Deploy to ${env}?`,
              requestedSchema: confirmation,
            }),
          },
        });
      }
      const accepted = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmation);
      return {
        content: [
          { type: 'text', text: accepted?.confirm ? `deployed to ${env}` : 'not deployed' },
        ],
      };
    },
  );
  server.registerTool('capital', { description: "Asks the client's model" }, async (ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'capital');
    if (answer.kind === 'missing') {
      return inputRequired({
        inputRequests: {
          capital: inputRequired.createMessage({
            messages: [
              { role: 'user', content: { type: 'text', text: 'What is the capital of France?' } },
            ],
            maxTokens: 20,
          }),
        },
      });
    }
    return { content: [{ type: 'text', text: `sampled: ${JSON.stringify(answer)}` }] };
  });
  server.registerResource('hello', 'v2://hello', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, text: 'hello from v2' }],
  }));
  server.registerResource(
    'item',
    new ResourceTemplate('v2://items/{id}', {
      list: undefined,
      complete: { id: (value) => ['1', '2', '17'].filter((id) => id.startsWith(value)) },
    }),
    { mimeType: 'text/plain' },
    async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `item ${String(id)}` }] }),
  );
  server.registerPrompt(
    'paint',
    {
      description: 'Asks for a painting',
      argsSchema: z.object({
        colour: completable(z.string(), (value) => COLOURS.filter((c) => c.startsWith(value))),
      }),
    },
    ({ colour }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Paint it ${colour}.` } }],
    }),
  );
  return server;
}

export function startV2Server(mode: V2Mode): Promise<LoopbackServer> {
  if (mode !== 'stateful') {
    const handler = createMcpHandler(
      () => buildV2Server(),
      mode === 'modern-only' ? { legacy: 'reject' } : {},
    );
    return serveFetch((request) => handler.fetch(request), { onClose: () => handler.close() });
  }
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  return serveFetch(
    async (request) => {
      const id = request.headers.get('mcp-session-id');
      const known = id === null ? undefined : sessions.get(id);
      if (known) return known.handleRequest(request);
      if (id !== null) return new Response(null, { status: 404 });
      const server = buildV2Server();
      servers.push(server);
      const transport: WebStandardStreamableHTTPServerTransport =
        new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
          onsessionclosed: (sessionId) => void sessions.delete(sessionId),
        });
      await server.connect(transport);
      return transport.handleRequest(request);
    },
    { onClose: async () => void (await Promise.all(servers.map((s) => s.close()))) },
  );
}
