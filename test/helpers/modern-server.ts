/**
 * A small MCP 2026-07-28 server as msw handlers, served over loopback by the fault server, for
 * asserting the modern wire format exactly: the _meta envelope, the mirrored headers, resultType
 * handling, version errors, cache hints and the subscriptions/listen stream. It validates what a
 * modern server must validate (header mismatch, missing _meta) so a client mistake shows up as
 * the error a real server would give.
 */
import { HttpResponse, http, type RequestHandler } from 'msw';

type JsonRpc = { id?: string | number; method?: string; params?: Record<string, unknown> };
type Reply = Response | undefined;

export interface ModernServerOptions {
  /** Revisions it accepts; others get -32022. */
  versions?: string[];
  /** The `ttlMs` put on list and read results. */
  ttlMs?: number;
  /** Extra tools to list. */
  tools?: Array<Record<string, unknown>>;
  /** Answers a request before the built-in handling, or passes (undefined). */
  override?: (message: JsonRpc, request: Request) => Reply | Promise<Reply>;
  /** Change notifications to send on the listen stream after the acknowledgement. */
  listenNotifications?: Array<Record<string, unknown>>;
}

const BASE_TOOLS = [
  {
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    annotations: { idempotentHint: true },
  },
  {
    name: 'regional',
    inputSchema: {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        limits: {
          type: 'object',
          properties: { count: { type: 'integer', 'x-mcp-header': 'Count' } },
        },
        dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
      },
    },
  },
  { name: 'confirm', inputSchema: { type: 'object' } },
];

function error(
  id: JsonRpc['id'],
  code: number,
  message: string,
  data?: unknown,
  status = 200,
): Response {
  return HttpResponse.json(
    {
      jsonrpc: '2.0',
      id: id ?? null,
      error: data === undefined ? { code, message } : { code, message, data },
    },
    { status },
  );
}

function result(id: JsonRpc['id'], value: Record<string, unknown>): Response {
  return HttpResponse.json({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...value } });
}

function decode(value: string): string {
  const match = /^=\?base64\?(.*)\?=$/s.exec(value);
  return match ? Buffer.from(match[1] ?? '', 'base64').toString('utf8') : value;
}

export function modernServer(options: ModernServerOptions = {}): RequestHandler[] {
  const versions = options.versions ?? ['2026-07-28'];
  const tools = [...BASE_TOOLS, ...(options.tools ?? [])];
  const ttl = options.ttlMs ?? 0;
  return [
    http.get('*/mcp', () => new HttpResponse(null, { status: 405 })),
    http.delete('*/mcp', () => new HttpResponse(null, { status: 405 })),
    http.post('*/mcp', async ({ request }) => {
      const message = (await request.clone().json()) as JsonRpc;
      const meta = (message.params?.['_meta'] ?? {}) as Record<string, unknown>;
      const version = meta['io.modelcontextprotocol/protocolVersion'];
      if (message.method === 'initialize') {
        return error(
          message.id,
          -32601,
          'initialize is not part of 2026-07-28 (supported versions: 2026-07-28)',
          undefined,
          404,
        );
      }
      if (typeof version !== 'string' || !meta['io.modelcontextprotocol/clientCapabilities']) {
        return error(message.id, -32602, 'missing _meta', undefined, 400);
      }
      if (!versions.includes(version)) {
        return error(
          message.id,
          -32022,
          'Unsupported protocol version',
          { supported: versions, requested: version },
          400,
        );
      }
      if (
        request.headers.get('mcp-protocol-version') !== version ||
        request.headers.get('mcp-method') !== message.method
      ) {
        return error(message.id, -32020, 'Header mismatch: version or method', undefined, 400);
      }
      const named =
        message.method === 'resources/read' ? message.params?.['uri'] : message.params?.['name'];
      if (
        ['tools/call', 'prompts/get', 'resources/read'].includes(message.method ?? '') &&
        decode(request.headers.get('mcp-name') ?? '') !== named
      ) {
        return error(message.id, -32020, 'Header mismatch: Mcp-Name', undefined, 400);
      }
      const overridden = await options.override?.(message, request);
      if (overridden) return overridden;
      switch (message.method) {
        case 'server/discover':
          return result(message.id, {
            supportedVersions: versions,
            capabilities: {
              tools: { listChanged: true },
              resources: { subscribe: true },
              logging: {},
            },
            instructions: 'a modern test server',
            ttlMs: ttl,
            cacheScope: 'public',
            _meta: {
              'io.modelcontextprotocol/serverInfo': { name: 'modern-test', version: '2.0.0' },
            },
          });
        case 'tools/list':
          return result(message.id, { tools, ttlMs: ttl, cacheScope: 'public' });
        case 'tools/call': {
          const args = (message.params?.['arguments'] ?? {}) as Record<string, unknown>;
          if (message.params?.['name'] === 'confirm') {
            return result(message.id, {
              resultType: 'input_required',
              inputRequests: {
                ok: {
                  method: 'elicitation/create',
                  params: { mode: 'form', message: 'Sure?', requestedSchema: { type: 'object' } },
                },
              },
              requestState: 'opaque-1',
            });
          }
          return result(message.id, { content: [{ type: 'text', text: JSON.stringify(args) }] });
        }
        case 'resources/read':
          return error(
            message.id,
            -32602,
            'Resource not found',
            { uri: message.params?.['uri'] },
            200,
          );
        case 'subscriptions/listen': {
          const events = [
            {
              jsonrpc: '2.0',
              method: 'notifications/subscriptions/acknowledged',
              params: {
                _meta: { 'io.modelcontextprotocol/subscriptionId': message.id },
                notifications: message.params?.['notifications'],
              },
            },
            ...(options.listenNotifications ?? []).map((n) => ({
              ...n,
              params: {
                ...(n['params'] as object),
                _meta: { 'io.modelcontextprotocol/subscriptionId': message.id },
              },
            })),
          ];
          const body = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
          // Stays open after what it has to say, as a listen stream does.
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(body));
            },
          });
          return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
        }
        default:
          return error(message.id, -32601, 'Method not found', undefined, 404);
      }
    }),
  ];
}
