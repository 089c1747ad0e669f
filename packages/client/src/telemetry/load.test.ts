import { afterEach, expect, test } from 'vitest';
import { loadObserver } from './load.ts';

const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1');
const globals = globalThis as Record<symbol, unknown>;

afterEach(() => {
  delete globals[OTEL_GLOBAL];
});

test('with nothing registered with OpenTelemetry, the default loads no observer', async () => {
  expect(OTEL_GLOBAL in globalThis).toBe(false);
  expect(await loadObserver(true)).toEqual({});
});

test('once an application registered with OpenTelemetry, the default reports to it', async () => {
  const { ProxyTracerProvider, trace } = await import('@opentelemetry/api');
  trace.getTracerProvider(); // the API itself registers nothing by being read
  expect(OTEL_GLOBAL in globalThis).toBe(false);
  trace.setGlobalTracerProvider(new ProxyTracerProvider());
  expect((await loadObserver(true)).observer).toBeDefined();
  trace.disable();
});

test('a provider given outright is used whether or not anything is registered', async () => {
  const { ProxyTracerProvider } = await import('@opentelemetry/api');
  const provider = new ProxyTracerProvider();
  expect((await loadObserver({ tracerProvider: provider })).observer).toBeDefined();
});

test('tracing: false loads nothing', async () => {
  globals[OTEL_GLOBAL] = { version: '1.9.0' };
  expect(await loadObserver(false)).toEqual({});
});
