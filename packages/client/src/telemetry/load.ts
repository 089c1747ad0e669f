/**
 * Which observer a client reports to. `tracing: false` loads nothing; otherwise the OpenTelemetry
 * observer is imported on a client's first operation, once per process, and only if
 * `@opentelemetry/api` can be found: an application without it pays one failed module lookup.
 */
import type { Observer } from './span.ts';

/** A TracerProvider of `@opentelemetry/api`, named structurally so the types need no import of it. */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): unknown;
}

export type TracingOption = boolean | { tracerProvider?: TracerProviderLike };

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
