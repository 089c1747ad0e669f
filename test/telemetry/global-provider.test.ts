/**
 * Tracing on by default, as an application that never passed `tracerProvider` sees it: with no
 * SDK registered the client makes no span, yet still carries a trace it is called inside; an SDK
 * registered later is used from the next call on.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Context,
  type ContextManager,
  context,
  ROOT_CONTEXT,
  trace,
} from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createMcpClient } from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterAll, beforeAll, expect, test } from 'vitest';

/** The least context manager that follows async work, as an SDK's would. */
class StorageContextManager implements ContextManager {
  readonly #storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.#storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.#storage.run(ctx, () => fn.apply(thisArg, args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    return this;
  }
}

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
  context.setGlobalContextManager(new StorageContextManager());
});
afterAll(async () => {
  trace.disable();
  context.disable();
  await server.close();
});

const traceIds = () =>
  server.log
    .map(
      (entry) => entry.body as { method?: string; params?: { _meta?: { traceparent?: string } } },
    )
    .filter((body) => body?.method === 'tools/call')
    .map((body) => body.params?._meta?.traceparent?.split('-')[1]);

test('no SDK: the caller’s trace is carried, no trace is made up; an SDK registered later records', async () => {
  await using client = createMcpClient(server.urls.modern, {
    listen: false,
  });
  await client.callTool('echo', { text: 'outside any trace' });
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const caller = trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId: 'b7ad6b7169203331',
    traceFlags: 1,
    isRemote: true,
  });
  await context.with(caller, () => client.callTool('echo', { text: 'inside' }));
  expect(traceIds()).toEqual([undefined, traceId]);

  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  await client.callTool('echo', { text: 'recorded' });
  expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['tools/call echo']);
  expect(traceIds().at(-1)).toBe(exporter.getFinishedSpans()[0]!.spanContext().traceId);
});
