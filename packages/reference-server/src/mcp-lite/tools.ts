/**
 * The MCP-lite fixture tools: one per `response_type`, one that streams, and the `redeem`
 * system tool. Each returns a Reply the endpoint writes as JSON or as SSE events. Content items
 * are the tool's own objects, with no MCP `type`, as in the seed's examples.
 */
import { ErrorCode, isObject, type JsonObject, RpcError } from '../jsonrpc.ts';
import { checkArguments } from '../schema-check.ts';
import type { PromiseStore } from './promises.ts';

/** What a tool answers: one result, or a stream of named events (written as JSON when not asked for SSE). */
export type Reply =
  | { kind: 'result'; result: JsonObject }
  | { kind: 'stream'; events: StreamEvent[] };

export type StreamEvent =
  | { event: 'message'; data: JsonObject }
  /** Sent after `delayMs`; a `quiet` one only waits (a server that goes silent as long). */
  | { event: 'heartbeat'; data: JsonObject; delayMs: number; quiet?: boolean }
  | { event: 'done'; data: JsonObject }
  | { event: 'error'; data: JsonObject };

export const SERVER_VERSION = 'toolwire-reference-mcp-lite/0.1.0';

/** `_meta` of a result, with the optional fields the seed lists. */
export function meta(type: string, extra: JsonObject = {}): JsonObject {
  return {
    response_type: type,
    timestamp: new Date().toISOString(),
    processing_time_ms: 1,
    server_version: SERVER_VERSION,
    ...extra,
  };
}

interface LiteTool {
  definition: JsonObject;
  run(args: JsonObject, promises: PromiseStore): Reply;
}

const DOCUMENTS = [
  {
    document_id: 'doc_123',
    title: 'MCP Protocol Overview',
    excerpt: 'The Model Context Protocol enables...',
  },
  { document_id: 'doc_456', title: 'MCP-lite Draft', excerpt: 'MCP-lite is a minimal subset...' },
  {
    document_id: 'doc_789',
    title: 'Webtools',
    excerpt: 'Webtools expose a lightweight contract...',
  },
];

const result = (value: JsonObject): Reply => ({ kind: 'result', result: value });

const TOOLS: LiteTool[] = [
  {
    definition: {
      name: 'redeem',
      '@type': 'system',
      description: 'Redeem a promise token to get the result of a long-running operation',
      inputSchema: {
        type: 'object',
        required: ['promise'],
        properties: {
          promise: {
            type: 'string',
            description: 'The promise token received from a previous operation',
          },
        },
      },
    },
    run: (args, promises) => {
      const outcome = promises.redeem(String(args['promise']));
      if (outcome === undefined) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          'Invalid params: unknown or expired promise token',
        );
      }
      if ('due' in outcome && typeof outcome.due === 'number') {
        return result({
          _meta: meta('promise', {
            promise_token: String(args['promise']),
            estimated_completion: new Date(outcome.due).toISOString(),
          }),
        });
      }
      return result(outcome as JsonObject);
    },
  },
  {
    definition: {
      name: 'search_documents',
      '@type': 'query',
      description: 'Search through available documents',
      inputSchema: {
        type: 'object',
        required: ['query'],
        properties: {
          query: { type: 'string', description: 'Search query' },
          limit: { type: 'integer', default: 10, minimum: 1, maximum: 100 },
        },
      },
    },
    run: (args) => {
      const limit = typeof args['limit'] === 'number' ? args['limit'] : 10;
      return result({ content: DOCUMENTS.slice(0, limit), _meta: meta('answer') });
    },
  },
  {
    definition: {
      name: 'echo',
      '@type': 'utility',
      description: 'Echoes its text; answers without _meta, which means answer',
      inputSchema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
    },
    run: (args) => result({ content: [{ type: 'text', text: String(args['text']) }] }),
  },
  {
    definition: {
      name: 'analyze_dataset',
      '@type': 'analysis',
      description: 'Analyses a dataset; answers with a promise to redeem',
      inputSchema: {
        type: 'object',
        required: ['dataset_id'],
        properties: {
          dataset_id: { type: 'string' },
          polls: {
            type: 'integer',
            minimum: 0,
            maximum: 10,
            description: 'Redeems that still wait',
          },
        },
      },
    },
    run: (args, promises) => {
      const polls = typeof args['polls'] === 'number' ? args['polls'] : 0;
      return promised(
        promises.issue(
          {
            content: [{ dataset_id: args['dataset_id'], rows: 1000, outliers: 3 }],
            _meta: meta('answer'),
          },
          { polls },
        ),
      );
    },
  },
  {
    definition: {
      name: 'long_analysis',
      '@type': 'analysis',
      description:
        'Analyses for `ms` milliseconds: answers with a promise due then, and "analysis: <text>" ' +
        'when redeemed after it; the token expires after `ttlMs`',
      inputSchema: {
        type: 'object',
        properties: {
          ms: { type: 'integer', minimum: 0, maximum: 600_000 },
          ttlMs: { type: 'integer', minimum: 1, maximum: 3_600_000 },
          text: { type: 'string' },
        },
      },
    },
    run: (args, promises) => {
      const text = typeof args['text'] === 'string' ? args['text'] : 'ok';
      return promised(
        promises.issue(
          { content: [{ type: 'text', text: `analysis: ${text}` }], _meta: meta('answer') },
          {
            readyInMs: typeof args['ms'] === 'number' ? args['ms'] : 300,
            ttlMs: typeof args['ttlMs'] === 'number' ? args['ttlMs'] : 600_000,
          },
        ),
      );
    },
  },
  {
    definition: {
      name: 'book_table',
      '@type': 'booking',
      description: 'Books a table; asks for the party size when it is missing',
      inputSchema: {
        type: 'object',
        required: ['restaurant'],
        properties: { restaurant: { type: 'string' }, party_size: { type: 'integer', minimum: 1 } },
      },
    },
    run: (args) => {
      if (typeof args['party_size'] !== 'number') {
        return result({
          content: [{ type: 'text', text: 'How many people is the table for?' }],
          elicitation: {
            message: 'How many people is the table for?',
            requestedSchema: {
              type: 'object',
              properties: { party_size: { type: 'integer', minimum: 1, title: 'Party size' } },
              required: ['party_size'],
            },
          },
          _meta: meta('elicitation'),
        });
      }
      return result({
        content: [
          { type: 'text', text: `Booked ${String(args['restaurant'])} for ${args['party_size']}.` },
        ],
        _meta: meta('answer'),
      });
    },
  },
  {
    definition: {
      name: 'transfer_funds',
      '@type': 'payment',
      description: 'Moves money; fails as business logic when the amount exceeds the balance',
      inputSchema: {
        type: 'object',
        required: ['amount'],
        properties: { amount: { type: 'number' } },
      },
    },
    run: (args) => {
      const amount = Number(args['amount']);
      if (amount > 100) {
        return result({
          content: [{ reason: 'insufficient_funds', balance: 100, requested: amount }],
          _meta: meta('failure'),
        });
      }
      return result({
        content: [{ type: 'text', text: `Transferred ${amount}.` }],
        _meta: meta('answer'),
      });
    },
  },
  {
    definition: {
      name: 'render_video',
      '@type': 'media',
      description: 'Renders a video; asks for more resources when the quota is too small',
      inputSchema: { type: 'object', properties: { minutes: { type: 'integer', minimum: 1 } } },
    },
    run: (args) =>
      result({
        content: [
          {
            type: 'text',
            text: `Rendering ${Number(args['minutes'] ?? 1)} minutes needs more GPU quota.`,
          },
        ],
        _meta: meta('request-for-more-resource', { resource: 'gpu_minutes', needed: 30 }),
      }),
  },
  {
    definition: {
      name: 'generate_report',
      '@type': 'generation',
      description: 'Writes a report in parts; streams them when asked for SSE',
      inputSchema: {
        type: 'object',
        required: ['topic'],
        properties: {
          topic: { type: 'string' },
          fail: { type: 'boolean', description: 'End the stream with an error event' },
          beats: {
            type: 'integer',
            minimum: 0,
            maximum: 50,
            description: 'Heartbeats before the end',
          },
          beat_ms: {
            type: 'integer',
            minimum: 1,
            maximum: 1000,
            description: 'Milliseconds between heartbeats',
          },
          silent: { type: 'boolean', description: 'Wait as long, but send no heartbeats' },
        },
      },
    },
    run: (args) => {
      const topic = String(args['topic']);
      const events: StreamEvent[] = [
        { event: 'message', data: { partial: `${topic}\n\nExecutive Summary` } },
      ];
      const beats = typeof args['beats'] === 'number' ? args['beats'] : 1;
      const beatMs = typeof args['beat_ms'] === 'number' ? args['beat_ms'] : 1;
      for (let beat = 0; beat < beats; beat++) {
        events.push({
          event: 'heartbeat',
          data: {},
          delayMs: beatMs,
          quiet: args['silent'] === true,
        });
      }
      if (args['fail'] === true) {
        events.push({
          event: 'error',
          data: {
            code: ErrorCode.InternalError,
            message: 'report generator crashed',
            data: { section: 2 },
          },
        });
        return { kind: 'stream', events };
      }
      events.push({
        event: 'message',
        data: { partial: '\n\nRevenue for Q4 increased by 15%...' },
      });
      events.push({ event: 'done', data: { _meta: meta('answer') } });
      return { kind: 'stream', events };
    },
  },
  {
    definition: {
      name: 'crash',
      '@type': 'diagnostic',
      description: 'Always fails with an internal error',
      inputSchema: { type: 'object', properties: {} },
    },
    run: () => {
      throw new RpcError(ErrorCode.InternalError, 'Internal error: the tool crashed');
    },
  },
];

/**
 * A streamed reply as one result, for a caller that did not ask for a stream: the partials joined
 * into a text block, `_meta` from `done`.
 */
export function assemble(events: StreamEvent[]): JsonObject {
  const text = events.flatMap((event) =>
    event.event === 'message' && typeof event.data['partial'] === 'string'
      ? [event.data['partial']]
      : [],
  );
  const done = events.find((event) => event.event === 'done');
  return { content: [{ type: 'text', text: text.join('') }], ...done?.data };
}

export function toolDefinitions(): JsonObject[] {
  return TOOLS.map((tool) => tool.definition);
}

/** Runs `tools/call` params; protocol failures are thrown as RpcError (§4.4 codes). */
export function callTool(params: unknown, promises: PromiseStore): Reply {
  if (!isObject(params) || typeof params['name'] !== 'string') {
    throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: a tool name is required');
  }
  const name = params['name'];
  const tool = TOOLS.find((candidate) => candidate.definition['name'] === name);
  if (!tool) {
    const available = TOOLS.map((candidate) => String(candidate.definition['name']));
    const suggestion = available.find(
      (candidate) => candidate.includes(name) || name.includes(candidate),
    );
    throw new RpcError(ErrorCode.MethodNotFound, 'Tool not found', {
      requested_tool: name,
      available_tools: available,
      ...(suggestion ? { suggestion: `Did you mean '${suggestion}'?` } : {}),
    });
  }
  const args = params['arguments'] ?? {};
  if (!isObject(args))
    throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: arguments must be an object');
  const problem = checkArguments(tool.definition['inputSchema'] as JsonObject, args);
  if (problem) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${problem}`);
  return tool.run(args, promises);
}

/** A promise answer for an issued token. */
function promised(issued: { token: string; due: number }): Reply {
  return result({
    _meta: meta('promise', {
      promise_token: issued.token,
      estimated_completion: new Date(issued.due).toISOString(),
    }),
  });
}
