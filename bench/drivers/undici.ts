/**
 * The floor: the same JSON-RPC POSTs a client must send, with undici.request over one pooled
 * Agent and the least parsing that is still correct (JSON.parse, or eventsource-parser for SSE,
 * the same parser and version toolwire uses, so the floor is fair). No validation, no retries,
 * no timers. Speaks the stateful revision on the legacy path and 2026-07-28 on the others
 * (`/modern`, `/protected`).
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { LEGACY_PATH, LEGACY_VERSION, MODERN_VERSION } from '../protocol.ts';
import { CLIENT_INFO, type Driver, type Session } from './driver.ts';

// toolwire's own copy of eventsource-parser (the root one may be another major version).
const fromClient = createRequire(import.meta.resolve('@toolwire/client'));
const { createParser } = (await import(
  pathToFileURL(fromClient.resolve('eventsource-parser')).href
)) as typeof import('eventsource-parser');

interface Reply {
  id?: unknown;
  result?: unknown;
  error?: unknown;
}

type Body = AsyncIterable<Buffer> & { text(): Promise<string> };

/** The reply with `id` from an SSE body; other events (notifications) are decoded and dropped. */
async function fromStream(body: Body, id: number): Promise<Reply> {
  let reply: Reply | undefined;
  const parser = createParser({
    onEvent: (event) => {
      if (!event.data) return;
      const message = JSON.parse(event.data) as Reply;
      if (message.id === id) reply = message;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of body) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  if (!reply) throw new Error('stream ended without the reply');
  return reply;
}

/**
 * The floor with `extra` headers on every request (`undici-bearer.ts`: the protected path's
 * token). The legacy path speaks the stateful revision, any other 2026-07-28.
 */
export function rawUndici(extra: Record<string, string>): Driver {
  return { connect: (url) => connect(url, extra) };
}

async function connect(url: string, extra: Record<string, string>): Promise<Session> {
  const modern = new URL(url).pathname !== LEGACY_PATH;
  const agent = new Agent();
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    ...extra,
  };
  const meta = modern
    ? {
        'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        'io.modelcontextprotocol/clientCapabilities': {},
      }
    : undefined;
  let nextId = 0;

  async function post(method: string, params: object, extra = {}): Promise<Reply> {
    const id = nextId++;
    const response = await request(url, {
      dispatcher: agent,
      method: 'POST',
      headers: { ...headers, ...extra },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method,
        params: meta ? { ...params, _meta: meta } : params,
      }),
    });
    if (method === 'initialize') {
      const session = response.headers['mcp-session-id'];
      if (typeof session === 'string') headers['mcp-session-id'] = session;
    }
    const type = String(response.headers['content-type'] ?? '');
    const reply = type.startsWith('text/event-stream')
      ? await fromStream(response.body, id)
      : (JSON.parse(await response.body.text()) as Reply);
    if (reply.error) throw new Error(JSON.stringify(reply.error));
    return reply;
  }

  if (modern) {
    headers['mcp-protocol-version'] = MODERN_VERSION;
    await post('server/discover', {}, { 'mcp-method': 'server/discover' });
  } else {
    await post('initialize', {
      protocolVersion: LEGACY_VERSION,
      capabilities: {},
      clientInfo: CLIENT_INFO,
    });
    headers['mcp-protocol-version'] = LEGACY_VERSION;
    const done = await request(url, {
      dispatcher: agent,
      method: 'POST',
      headers,
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    });
    await done.body.dump();
  }
  return {
    call: async (name, args) =>
      (
        await post(
          'tools/call',
          { name, arguments: args ?? {} },
          modern ? { 'mcp-method': 'tools/call', 'mcp-name': name } : {},
        )
      ).result,
    close: async () => {
      if (!modern) {
        const done = await request(url, { dispatcher: agent, method: 'DELETE', headers });
        await done.body.dump();
      }
      await agent.close();
    },
  };
}

export default rawUndici({});
