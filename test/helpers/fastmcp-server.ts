/**
 * punkpeye's fastmcp on a loopback port with its `httpStream` transport, stateful (a session per
 * client, a GET stream, DELETE) or stateless (a fresh session per request). fastmcp builds its
 * sessions with the 1.x SDK `Server` and serves them through mcp-proxy's HTTP server, which uses
 * the v2 SDK's Streamable HTTP transport for 2025-era traffic.
 *
 * fastmcp chooses its own port and does not report the one it got when given 0, so the helper
 * picks a free loopback port first.
 */
import { FastMCP, type Logger, UserError } from 'fastmcp';
import { z } from 'zod';
import { freePort } from './fetch-server.ts';

export type FastMcpMode = 'stateful' | 'stateless';

export interface FastMcpServer extends AsyncDisposable {
  url: string;
  /** What fastmcp logged through its logger, as `level: text` lines. */
  logged: string[];
  close(): Promise<void>;
}

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const COLOURS = ['red', 'green', 'blue', 'black'];

function capture(logged: string[]): Logger {
  const line =
    (level: string) =>
    (...args: unknown[]) =>
      void logged.push(`${level}: ${args.map(String).join(' ')}`);
  return {
    debug: line('debug'),
    error: line('error'),
    info: line('info'),
    log: line('log'),
    warn: line('warn'),
  };
}

function buildServer(logged: string[]): FastMCP {
  const server = new FastMCP({
    name: 'fastmcp-interop',
    version: '1.0.0',
    logger: capture(logged),
  });
  server.addTool({
    name: 'echo',
    description: 'Echoes text',
    parameters: z.object({ text: z.string() }),
    annotations: { idempotentHint: true },
    execute: async ({ text }) => text,
  });
  server.addTool({
    name: 'add',
    description: 'Adds two numbers',
    parameters: z.object({ a: z.number(), b: z.number() }),
    outputSchema: z.object({ sum: z.number() }),
    execute: async ({ a, b }) => ({ sum: a + b }),
  });
  server.addTool({
    name: 'image',
    description: 'Returns an image',
    execute: async () => ({ type: 'image', data: PNG, mimeType: 'image/png' }),
  });
  server.addTool({
    name: 'fail',
    description: 'Fails with a UserError',
    execute: async () => {
      throw new UserError('it failed');
    },
  });
  server.addTool({
    name: 'throw',
    description: 'Throws',
    execute: async () => {
      throw new Error('it threw');
    },
  });
  server.addTool({
    name: 'progress',
    description: 'Reports progress',
    parameters: z.object({ steps: z.number().int() }),
    execute: async ({ steps }, { reportProgress }) => {
      for (let i = 1; i <= steps; i++) {
        await reportProgress({ progress: i, total: steps, message: `step ${i}` });
      }
      return `done after ${steps} steps`;
    },
  });
  server.addTool({
    name: 'stream',
    description: 'Streams content with fastmcp’s notifications/tool/streamContent extension',
    execute: async (_args, { streamContent }) => {
      await streamContent({ type: 'text', text: 'partial' });
      return 'complete';
    },
  });
  server.addTool({
    name: 'log',
    description: 'Logs a message',
    parameters: z.object({ text: z.string() }),
    execute: async ({ text }, { log }) => {
      log.info(text, { from: 'fastmcp' });
      return 'logged';
    },
  });
  server.addTool({
    name: 'confirm',
    description: 'Asks the user to confirm (context.elicit)',
    execute: async (_args, { elicit }) => {
      const answer = await elicit({
        message: 'Ship it?',
        requestedSchema: {
          type: 'object',
          properties: { ship: { type: 'boolean' } },
          required: ['ship'],
        },
      });
      return answer.action === 'accept' && answer.content?.['ship'] === true
        ? 'shipped'
        : `not shipped (${answer.action})`;
    },
  });
  server.addTool({
    name: 'capital',
    description: "Asks the client's model (the session's requestSampling)",
    execute: async () => {
      // fastmcp offers sampling on the session, not in the tool's context: the newest one is
      // the caller's in these tests (one client at a time).
      const session = server.sessions.at(-1);
      if (!session) throw new UserError('no session');
      const answer = await session.requestSampling({
        messages: [
          { role: 'user', content: { type: 'text', text: 'What is the capital of France?' } },
        ],
        maxTokens: 20,
      });
      return `sampled: ${answer.content.type === 'text' ? answer.content.text : answer.content.type} (${answer.model})`;
    },
  });
  server.addResource({
    uri: 'fast://hello',
    name: 'hello',
    mimeType: 'text/plain',
    load: async () => ({ text: 'hello from fastmcp' }),
  });
  server.addResourceTemplate({
    uriTemplate: 'fast://items/{id}',
    name: 'item',
    mimeType: 'text/plain',
    arguments: [
      {
        name: 'id',
        required: true,
        complete: async (value) => ({
          values: ['1', '2', '17'].filter((id) => id.startsWith(value)),
        }),
      },
    ],
    load: async ({ id }) => ({ text: `item ${id}` }),
  });
  server.addPrompt({
    name: 'paint',
    description: 'Asks for a painting',
    arguments: [
      {
        name: 'colour',
        required: true,
        complete: async (value) => ({ values: COLOURS.filter((c) => c.startsWith(value)) }),
      },
    ],
    load: async ({ colour }) => `Paint it ${colour}.`,
  });
  return server;
}

export async function startFastMcpServer(mode: FastMcpMode): Promise<FastMcpServer> {
  for (let attempt = 1; ; attempt++) {
    const logged: string[] = [];
    const server = buildServer(logged);
    const port = await freePort();
    try {
      await server.start({
        transportType: 'httpStream',
        httpStream: { host: '127.0.0.1', port, stateless: mode === 'stateless' },
      });
    } catch (error) {
      // Someone took the port between the probe and the start: try another.
      if (attempt < 3 && (error as { code?: unknown }).code === 'EADDRINUSE') continue;
      throw error;
    }
    const close = () => server.stop();
    return {
      url: `http://127.0.0.1:${port}/mcp`,
      logged,
      close,
      [Symbol.asyncDispose]: close,
    };
  }
}
