/**
 * fiberplane's mcp-lite (the npm framework, not the MCP-lite spec dialect) on a loopback port:
 * its fetch-style StreamableHttpTransport behind node:http. Stateless is its default; the session
 * adapter (with the client-request adapter its README pairs it with) makes it stateful: session
 * ids, a GET stream, event ids and DELETE.
 */
import {
  InMemoryClientRequestAdapter,
  InMemorySessionAdapter,
  McpServer,
  StreamableHttpTransport,
} from 'mcp-lite';
import { z } from 'zod';
import { type LoopbackServer, serveFetch } from './fetch-server.ts';

export type McpLiteMode = 'stateless' | 'stateful';

export interface McpLiteServer extends LoopbackServer {
  /** The mcp-lite server itself, to change its tools while a client is connected. */
  mcp: McpServer;
}

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function buildServer(): McpServer {
  const server = new McpServer({
    name: 'mcp-lite-interop',
    version: '1.0.0',
    schemaAdapter: (schema) => z.toJSONSchema(schema as z.ZodType),
  });
  server.tool('echo', {
    description: 'Echoes text',
    inputSchema: z.object({ text: z.string() }),
    annotations: { idempotentHint: true },
    handler: (args) => ({ content: [{ type: 'text', text: args.text }] }),
  });
  server.tool('add', {
    description: 'Adds two numbers',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    outputSchema: z.object({ sum: z.number() }),
    handler: (args) => ({
      content: [{ type: 'text', text: String(args.a + args.b) }],
      structuredContent: { sum: args.a + args.b },
    }),
  });
  server.tool('image', {
    description: 'Returns an image',
    handler: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
  });
  server.tool('fail', {
    description: 'Reports a failure as a result',
    handler: () => ({ content: [{ type: 'text', text: 'it failed' }], isError: true }),
  });
  server.tool('throw', {
    description: 'Throws',
    handler: () => {
      throw new Error('it threw');
    },
  });
  server.tool('progress', {
    description: 'Reports progress',
    inputSchema: z.object({ steps: z.number().int() }),
    handler: async (args, ctx) => {
      for (let i = 1; i <= args.steps; i++) {
        await ctx.progress?.({ progress: i, total: args.steps, message: `step ${i}` });
      }
      return { content: [{ type: 'text', text: `done after ${args.steps} steps` }] };
    },
  });
  // Elicitation and sampling go to the client only with the session and client-request adapters
  // (the stateful mode), and only when the client declared the capability.
  server.tool('confirm', {
    description: 'Asks the user to confirm (ctx.elicit)',
    handler: async (_args, ctx) => {
      if (!ctx.client.supports('elicitation')) throw new Error('elicitation not supported');
      // A JSON Schema: mcp-lite 0.10's elicit does not pass zod through its schema adapter.
      const answer = await ctx.elicit({
        message: 'Delete the record?',
        schema: {
          type: 'object',
          properties: { confirmed: { type: 'boolean' } },
          required: ['confirmed'],
        },
      });
      const yes = answer.action === 'accept' && answer.content?.['confirmed'] === true;
      return { content: [{ type: 'text', text: yes ? 'deleted' : `kept (${answer.action})` }] };
    },
  });
  server.tool('capital', {
    description: "Asks the client's model (ctx.sample)",
    handler: async (_args, ctx) => {
      if (!ctx.client.supports('sampling')) throw new Error('sampling not supported');
      const response = await ctx.sample({
        prompt: 'What is the capital of France?',
        maxTokens: 20,
      });
      return { content: [{ type: 'text', text: `sampled: ${JSON.stringify(response)}` }] };
    },
  });
  server.resource('lite://hello', { name: 'hello', mimeType: 'text/plain' }, async (uri: URL) => ({
    contents: [{ uri: uri.href, type: 'text', text: 'hello from mcp-lite' }],
  }));
  server.resource(
    'lite://items/{id}',
    { name: 'item', mimeType: 'text/plain' },
    async (uri: URL, vars: Record<string, string>) => ({
      contents: [{ uri: uri.href, type: 'text', text: `item ${String(vars['id'])}` }],
    }),
  );
  server.prompt('greet', {
    description: 'Greets someone',
    arguments: z.object({ name: z.string() }),
    handler: (args: { name: string }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${args.name}!` } }],
    }),
  });
  return server;
}

export async function startMcpLiteServer(mode: McpLiteMode): Promise<McpLiteServer> {
  const transport =
    mode === 'stateless'
      ? new StreamableHttpTransport()
      : new StreamableHttpTransport({
          sessionAdapter: new InMemorySessionAdapter({ maxEventBufferSize: 1024 }),
          clientRequestAdapter: new InMemoryClientRequestAdapter({ defaultTimeoutMs: 30_000 }),
        });
  const mcp = buildServer();
  const handler = transport.bind(mcp);
  return Object.assign(await serveFetch((request) => handler(request)), { mcp });
}
