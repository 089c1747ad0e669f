/**
 * OpenTelemetry, as an application that registered a tracer provider sees it: one CLIENT span per
 * operation, named and described by the semantic conventions for MCP, with child spans for the
 * connect and its probes, retries, input rounds and polls of deferred work; errors recorded with
 * their code; the trace context in the request's `_meta`. Spans are read from the SDK's
 * in-memory exporter.
 */
import { SpanKind } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { type ClientOptions, createMcpClient } from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { printTree, spanTrees } from '../helpers/span-tree.ts';

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});

let server: ReferenceServer;
beforeEach(async () => {
  server = await startReferenceServer();
  exporter.reset();
});
afterEach(() => server.close());

function traced(url: string, options: ClientOptions = {}) {
  return createMcpClient(url, {
    tracing: { tracerProvider },
    listen: false,
    ...options,
  });
}

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((span) => span.name === name);
const childrenOf = (parent: ReadableSpan) =>
  spans().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
const metaOf = (method: string) =>
  server.log
    .map((entry) => entry.body as { method?: string; params?: { _meta?: Record<string, unknown> } })
    .filter((body) => body?.method === method)
    .map((body) => body.params?._meta ?? {});

test('a call that retried once and polled a task: one span, with a retry and the polls under it', async () => {
  await using client = traced(server.urls.modern);
  await client.listTools();
  exporter.reset();
  server.faults.failNext(1, { status: 503, method: 'tools/call' });
  const result = await client.callTool('slow_task', {
    ms: 300,
    text: 'traced',
    pollIntervalMs: 80,
  });
  expect(result.content).toEqual([{ type: 'text', text: 'done: traced' }]);

  const [root, ...rest] = spanTrees(spans());
  expect(rest).toEqual([]);
  expect(root!.span.name).toBe('tools/call slow_task');
  expect(root!.span.kind).toBe(SpanKind.CLIENT);
  expect(root!.span.attributes).toMatchObject({
    'mcp.method.name': 'tools/call',
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'slow_task',
    'mcp.protocol.version': '2026-07-28',
    'server.address': '127.0.0.1',
    'server.port': Number(new URL(server.urls.modern).port),
    'network.transport': 'tcp',
  });
  const steps = root!.children.map((node) => node.span);
  expect(steps[0]).toMatchObject({
    name: 'retry',
    attributes: { 'toolwire.retry.attempt': 1, 'toolwire.retry.after': 'HTTP 503' },
  });
  const polls = steps.slice(1);
  expect(polls.length).toBeGreaterThan(1);
  expect(polls.every((span) => span.name === 'poll task')).toBe(true);
  expect(polls.at(-1)!.attributes['toolwire.poll.found']).toBe('complete');
  expect(polls[0]!.attributes['toolwire.poll.found']).toBe('working');
  console.log(
    printTree(spanTrees(spans()), [
      'mcp.method.name',
      'gen_ai.tool.name',
      'mcp.protocol.version',
      'toolwire.retry.attempt',
      'toolwire.retry.after',
      'toolwire.poll.found',
    ]),
  );
});

test('the first operation connects in a child span, whose children are the probes', async () => {
  await using client = traced(server.url);
  await client.listTools();
  const [list] = named('tools/list');
  expect(list!.attributes).toMatchObject({
    'mcp.method.name': 'tools/list',
    'mcp.protocol.version': '2025-11-25',
    'toolwire.dialect': 'mcp-stateful',
  });
  const [connect] = childrenOf(list!);
  expect(connect!.name).toBe('connect');
  expect(childrenOf(connect!).map((span) => span.name)).toEqual([
    'probe server/discover',
    'probe initialize',
  ]);
  expect(named('probe server/discover')[0]!.attributes['toolwire.probe.found']).toBe('not-modern');
});

test('connect() on its own is an operation of its own', async () => {
  await using client = traced(server.urls.modern);
  await client.connect();
  expect(spanTrees(spans()).map((node) => node.span.name)).toEqual(['connect']);
  expect(childrenOf(named('connect')[0]!).map((span) => span.name)).toEqual([
    'probe server/discover',
  ]);
});

test('an input round is a child span of the call that asked', async () => {
  await using client = traced(server.urls.modern, {
    onElicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
  });
  await client.listTools();
  exporter.reset();
  await client.callTool('ask_name');
  const [call] = named('tools/call ask_name');
  expect(childrenOf(call!).map((span) => span.name)).toEqual(['input']);
});

describe.each([
  ['2026-07-28', () => server.urls.modern],
  ['a legacy session', () => server.url],
])('the trace context travels in _meta (%s)', (_era, url) => {
  test("traceparent names the operation's span; the caller's _meta is kept", async () => {
    await using client = traced(url());
    await client.callTool('echo', { text: 'x' }, { meta: { 'example.com/run': 'r1' } });
    const [call] = named('tools/call echo');
    const { traceId, spanId } = call!.spanContext();
    expect(metaOf('tools/call').at(-1)).toMatchObject({
      traceparent: `00-${traceId}-${spanId}-01`,
      'example.com/run': 'r1',
    });
  });
});

test('errors are recorded with their code; a tool result with isError is a tool_error', async () => {
  await using client = traced(server.url);
  await client.callTool('fail', { message: 'no' });
  await expect(client.callTool('no_such_tool')).rejects.toThrow();
  const [failed] = named('tools/call fail');
  expect(failed!.status.code).toBe(2);
  expect(failed!.attributes['error.type']).toBe('tool_error');
  const [missing] = named('tools/call no_such_tool');
  expect(missing!.status.code).toBe(2);
  expect(missing!.attributes).toMatchObject({
    'error.type': 'JSON_RPC',
    'rpc.response.status_code': '-32602',
  });
  expect(missing!.events.map((event) => event.name)).toEqual(['exception']);
});

test('tracing: false makes no span and puts no trace context on the wire', async () => {
  await using client = traced(server.urls.modern, { tracing: false });
  await client.callTool('echo', { text: 'x' });
  expect(spans()).toEqual([]);
  expect(metaOf('tools/call').at(-1)).not.toHaveProperty('traceparent');
});

test('a call answered from the policy’s reuse has a span of its own, saying so', async () => {
  await using client = traced(server.url, { policy: { reuse: { ttlMs: 60_000 } } });
  await client.listTools();
  await client.callTool('echo', { text: 'once' });
  exporter.reset();
  const again = await client.callTool('echo', { text: 'once' });
  expect(again.content).toEqual([{ type: 'text', text: 'once' }]);
  const [span, ...more] = named('tools/call echo');
  expect(more).toEqual([]);
  expect(span?.attributes).toMatchObject({
    'toolwire.policy.reused': true,
    'gen_ai.tool.name': 'echo',
  });
  // Reused: the server saw one call.
  expect(
    server.log.filter((entry) => (entry.body as { method?: string })?.method === 'tools/call'),
  ).toHaveLength(1);
});
