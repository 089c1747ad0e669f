import { type SseEvent, SseReader } from './sse.ts';

/** A JSON-RPC message as the tests look at it. */
export interface RpcMessage {
  jsonrpc: '2.0';
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** A CallToolResult as the tests look at it. */
export interface ToolResult {
  content: Array<Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What one POSTed request produced. */
export interface Exchange {
  http: Response;
  /** The response to the request, if it arrived on this connection. */
  response: RpcMessage | undefined;
  /** Every JSON-RPC message of the answer (SSE) in order; just the response for JSON. */
  messages: RpcMessage[];
  /** The raw SSE events, priming events included; empty for JSON answers. */
  events: SseEvent[];
  /** True when an SSE answer ended by a broken connection. */
  broken: boolean;
}

/** Parses the JSON-RPC messages out of SSE events, skipping events with empty data. */
export function messagesOf(events: readonly SseEvent[]): RpcMessage[] {
  return events.filter((event) => event.data !== '').map((event) => JSON.parse(event.data));
}

/** The parameters every initialize in these tests sends. */
export function initializeParams(
  protocolVersion: string,
  capabilities: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    protocolVersion,
    capabilities,
    clientInfo: { name: 'reference-server-tests', version: '0.0.0' },
  };
}

/** Reads a request's answer, whichever media type the server chose. */
export async function readExchange(
  http: Response,
  id: string | number | undefined,
): Promise<Exchange> {
  const type = http.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    const { events, broken } = await new SseReader(http.body).readAll();
    const messages = messagesOf(events);
    const response = messages.find((message) => message.method === undefined && message.id === id);
    return { http, response, messages, events, broken };
  }
  const text = await http.text();
  const parsed: RpcMessage | undefined = text === '' ? undefined : JSON.parse(text);
  const messages = parsed === undefined ? [] : [parsed];
  return { http, response: parsed, messages, events: [], broken: false };
}

interface ConnectOptions {
  /** The version offered in initialize; default 2025-11-25. */
  version?: string;
  /** Send MCP-Protocol-Version on later requests (default: when the negotiated version has it). */
  versionHeader?: boolean;
  /** Skip notifications/initialized. */
  skipInitialized?: boolean;
  /** The client capabilities declared in initialize; default none. */
  capabilities?: Record<string, unknown>;
}

/** A deliberately small MCP client over fetch, written from the transport specification. */
export class TestClient {
  readonly url: string;
  sessionId: string | undefined;
  version: string;
  versionHeader: boolean;
  initializeResult: Record<string, unknown> | undefined;
  #nextId = 1;

  constructor(url: string, version = '2025-11-25') {
    this.url = url;
    this.version = version;
    this.versionHeader = false;
  }

  /** Runs initialize (+ notifications/initialized) and returns the ready client. */
  static async connect(url: string, options: ConnectOptions = {}): Promise<TestClient> {
    const client = new TestClient(url, options.version);
    const exchange = await client.request(
      'initialize',
      initializeParams(client.version, options.capabilities),
    );
    if (exchange.response?.result === undefined) {
      throw new Error(`initialize failed: ${JSON.stringify(exchange.response)}`);
    }
    client.initializeResult = exchange.response.result;
    client.sessionId = exchange.http.headers.get('mcp-session-id') ?? undefined;
    client.version = String(exchange.response.result['protocolVersion']);
    client.versionHeader = options.versionHeader ?? client.version !== '2025-03-26';
    if (options.skipInitialized !== true) {
      const ack = await client.notify('notifications/initialized');
      if (ack.status !== 202) throw new Error(`initialized got ${ack.status}`);
    }
    return client;
  }

  /** Session and version headers for requests after initialize. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    if (this.versionHeader) headers['mcp-protocol-version'] = this.version;
    return { ...headers, ...extra };
  }

  nextId(): number {
    return this.#nextId++;
  }

  /** POSTs any body with the client's headers. */
  post(body: unknown, extra: Record<string, string> = {}): Promise<Response> {
    return fetch(this.url, {
      method: 'POST',
      headers: this.headers(extra),
      body: JSON.stringify(body),
    });
  }

  /** Sends a request and reads the whole answer. */
  async request(
    method: string,
    params?: Record<string, unknown>,
    options: { id?: string | number; headers?: Record<string, string> } = {},
  ): Promise<Exchange> {
    const id = options.id ?? this.nextId();
    const http = await this.post(rpc(id, method, params), options.headers);
    return readExchange(http, id);
  }

  /** Sends a request and returns its result, failing on a JSON-RPC error. */
  async result(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { response } = await this.request(method, params);
    if (response?.result === undefined)
      throw new Error(`${method} failed: ${JSON.stringify(response)}`);
    return response.result;
  }

  /** Calls a tool and returns its CallToolResult. */
  async callTool(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
    const result = await this.result('tools/call', { name, arguments: args });
    return result as unknown as ToolResult;
  }

  /** POSTs a notification. */
  notify(method: string, params?: Record<string, unknown>): Promise<Response> {
    const body =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    return this.post(body);
  }

  /** Opens a GET stream (optionally resuming after `lastEventId`). */
  async get(lastEventId?: string): Promise<{ http: Response; reader: SseReader }> {
    const headers = this.headers({ accept: 'text/event-stream' });
    delete headers['content-type'];
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const http = await fetch(this.url, { method: 'GET', headers });
    return { http, reader: new SseReader(http.body) };
  }

  /** Ends the session. */
  delete(): Promise<Response> {
    const headers = this.headers();
    delete headers['content-type'];
    return fetch(this.url, { method: 'DELETE', headers });
  }
}

/** Builds a JSON-RPC request body. */
export function rpc(
  id: string | number,
  method: string,
  params?: Record<string, unknown>,
): Record<string, unknown> {
  return params === undefined
    ? { jsonrpc: '2.0', id, method }
    : { jsonrpc: '2.0', id, method, params };
}

/** The text of a tool result's first text block. */
export function firstText(result: ToolResult): string {
  const block = result.content.find((item) => item['type'] === 'text');
  return typeof block?.['text'] === 'string' ? block['text'] : '';
}
