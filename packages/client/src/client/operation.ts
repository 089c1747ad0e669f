/**
 * What a client operation's span says, in the semantic conventions for MCP client spans: its name
 * (`{mcp.method.name} {target}`), its attributes, and the trace context its request carries.
 */
import type { CallStart } from '../call/call.ts';
import { metaOf } from '../core/jsonrpc.ts';
import type { Dialect } from '../dialects/dialect.ts';
import type { Attributes, Span } from '../telemetry/span.ts';

/** The dialects that speak MCP's JSON-RPC, whose `_meta` carries trace context. */
const PROPAGATING = new Set(['mcp-stateless', 'mcp-stateful', 'mcp-sse']);

/** Where the server is: `server.address`, `server.port`, and the transport under MCP. */
export function peerAttributes(url: string): Attributes {
  const { hostname, port, protocol } = new URL(url);
  return {
    'server.address': hostname.replace(/^\[|\]$/g, ''),
    'server.port': Number(port || (protocol === 'https:' ? 443 : 80)),
    'network.transport': 'tcp',
    'network.protocol.name': 'http',
  };
}

/** The name and attributes of an operation's span, from what it asks. */
export function describeOperation(call: CallStart): { name: string; attributes: Attributes } {
  if ('handle' in call) {
    const { tool, kind } = call.handle;
    return {
      name: `tools/call ${tool}`,
      attributes: { ...toolAttributes(tool), 'toolwire.redeem': kind },
    };
  }
  const { method, params } = call.operation;
  const name = typeof params?.['name'] === 'string' ? params['name'] : undefined;
  const uri = typeof params?.['uri'] === 'string' ? params['uri'] : undefined;
  if (method === 'tools/call' && name) {
    return { name: `${method} ${name}`, attributes: toolAttributes(name) };
  }
  if (method === 'prompts/get' && name) {
    return {
      name: `${method} ${name}`,
      attributes: { 'mcp.method.name': method, 'gen_ai.prompt.name': name },
    };
  }
  return { name: method, attributes: { 'mcp.method.name': method, 'mcp.resource.uri': uri } };
}

/** What the connection told the span: the revision agreed, and the dialect. */
export function connectedAttributes(dialect: Dialect): Attributes {
  return {
    'mcp.protocol.version': dialect.server.protocolVersion || undefined,
    'toolwire.dialect': dialect.name,
  };
}

/**
 * The call with the span's trace context in its `_meta`, for the MCP dialects (2026-07-28 reserves
 * `traceparent`, `tracestate` and `baggage`; legacy servers that trace read `traceparent` there
 * too). `_meta` the caller set wins.
 */
export function withTraceContext(call: CallStart, dialect: Dialect, span: Span): CallStart {
  if ('handle' in call || !PROPAGATING.has(dialect.name)) return call;
  const context = span.traceContext();
  if (!context) return call;
  const { operation } = call;
  const meta = { ...context, ...metaOf(operation.params) };
  return { operation: { ...operation, params: { ...operation.params, _meta: meta } } };
}

function toolAttributes(tool: string): Attributes {
  return {
    'mcp.method.name': 'tools/call',
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
  };
}
