/**
 * Which observer a client reports to. `tracing: false` loads nothing; otherwise the OpenTelemetry
 * observer is imported on a client's first operation, once per process, and only if an
 * application registered something with `@opentelemetry/api` (or passed a provider) and the API
 * can be found: an application without tracing loads none of it.
 */
import type { Observer } from './span.ts';

/** A TracerProvider of `@opentelemetry/api`, named structurally so the types need no import of it. */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): unknown;
}

export type TracingOption = boolean | { tracerProvider?: TracerProviderLike };

/** Where `@opentelemetry/api` (major 1) keeps what an application registered with it. */
const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1');

type Loaded = { otel: typeof import('./otel.ts') } | { error: Error | undefined };

let loading: Promise<Loaded> | undefined;

/**
 * The observer for `option`, or none. `error` is set when `@opentelemetry/api` is there but could
 * not be used (an incompatible version, say): the client reports it and goes on without tracing.
 */
export async function loadObserver(
  option: TracingOption,
): Promise<{ observer?: Observer; error?: Error }> {
  if (option === false) return {};
  // Nothing was registered with OpenTelemetry and no provider given: no span could be recorded,
  // so the API (some 60 modules) is not loaded. An SDK registers itself before the app's first
  // call, as OpenTelemetry asks; a client made earlier looks again on its first operation.
  if (option === true && !(OTEL_GLOBAL in globalThis)) return {};
  loading ??= import('./otel.ts').then(
    (otel) => ({ otel }),
    (error: NodeJS.ErrnoException) => ({
      error: error.code === 'ERR_MODULE_NOT_FOUND' ? undefined : error,
    }),
  );
  const loaded = await loading;
  if (!('otel' in loaded)) return loaded.error ? { error: loaded.error } : {};
  const provider = typeof option === 'object' ? option.tracerProvider : undefined;
  return { observer: loaded.otel.otelObserver(provider) };
}
