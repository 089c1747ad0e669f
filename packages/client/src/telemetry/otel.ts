/**
 * The OpenTelemetry observer. Loaded only by `load.ts`, and only when `@opentelemetry/api` is
 * installed: nothing of OpenTelemetry is imported otherwise. Spans follow the semantic
 * conventions for MCP client spans (`{mcp.method.name} {target}`, kind CLIENT, `mcp.*`,
 * `gen_ai.*`, `error.type`, `rpc.response.status_code`); steps inside an operation are INTERNAL
 * children named by what they are (`connect`, `probe server/discover`, `retry`, `input`, `poll task`).
 */
import {
  context,
  isSpanContextValid,
  type Span as OtelSpan,
  ProxyTracerProvider,
  propagation,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import packageJson from '../../package.json' with { type: 'json' };
import { isMcpError, JsonRpcError } from '../core/errors.ts';
import type { TracerProviderLike } from './load.ts';
import { type Attributes, NO_SPAN, type Observer, type Span } from './span.ts';

/** The `_meta` keys the 2026-07-28 specification reserves for trace context. */
const PROPAGATED = ['traceparent', 'tracestate', 'baggage'] as const;

/** What the global provider hands on to until an SDK registers one: OpenTelemetry's no-op. */
const NO_OP_PROVIDER = new ProxyTracerProvider().getDelegate();

export function otelObserver(provider?: TracerProviderLike): Observer {
  const source = (provider as TracerProvider | undefined) ?? trace.getTracerProvider();
  const tracer = source.getTracer(packageJson.name, packageJson.version);
  return {
    quiet() {
      // No SDK registered and no trace to continue: `operation` would give NO_SPAN, so the
      // name and attributes need not be built (a cost on every call of an app without tracing).
      if (!(source instanceof ProxyTracerProvider) || source.getDelegate() !== NO_OP_PROVIDER) {
        return false;
      }
      const parent = trace.getSpanContext(context.active());
      return parent === undefined || !isSpanContextValid(parent);
    },
    operation(name, attributes) {
      const span = tracer.startSpan(
        name,
        { kind: SpanKind.CLIENT, attributes: defined(attributes) },
        context.active(),
      );
      // Nothing records it and no trace runs through it: a span would cost and show nothing.
      if (!span.isRecording() && !isSpanContextValid(span.spanContext())) return NO_SPAN;
      return wrap(tracer, span);
    },
  };
}

function wrap(tracer: Tracer, span: OtelSpan): Span {
  return {
    child(name, attributes = {}) {
      const parent = trace.setSpan(context.active(), span);
      return wrap(
        tracer,
        tracer.startSpan(
          name,
          { kind: SpanKind.INTERNAL, attributes: defined(attributes) },
          parent,
        ),
      );
    },
    set(attributes) {
      span.setAttributes(defined(attributes));
    },
    traceContext() {
      const carrier: Record<string, string> = {};
      propagation.inject(trace.setSpan(context.active(), span), carrier);
      // No propagator registered (a bare SDK): the W3C format is the specification's anyway.
      if (carrier['traceparent'] === undefined) {
        const { traceId, spanId, traceFlags, traceState } = span.spanContext();
        carrier['traceparent'] =
          `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
        const state = traceState?.serialize();
        if (state) carrier['tracestate'] = state;
      }
      const kept: Record<string, string> = {};
      for (const key of PROPAGATED) if (carrier[key]) kept[key] = carrier[key];
      return kept;
    },
    end(ending = {}) {
      const { error, toolError } = ending;
      if (error !== undefined) {
        const failure = error instanceof Error ? error : new Error(String(error));
        span.setAttribute('error.type', isMcpError(failure) ? failure.code : failure.name);
        if (failure instanceof JsonRpcError) {
          span.setAttribute('rpc.response.status_code', String(failure.rpcCode));
        }
        span.recordException(failure);
        span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
      } else if (toolError) {
        span.setAttribute('error.type', 'tool_error');
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}

function defined(attributes: Attributes): Record<string, string | number | boolean> {
  const kept: Record<string, string | number | boolean> = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) kept[key] = value;
  }
  return kept;
}
