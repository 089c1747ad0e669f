/**
 * What the client tells an observer as it works: one span per operation, with child spans for
 * the steps worth seeing (the probes of a connect, retries, input rounds, polls of deferred
 * work). The client knows only this interface; OpenTelemetry's is behind it (`otel.ts`), loaded
 * when asked for and installed. Without an observer every span is `NO_SPAN`, which does nothing.
 *
 * The span a step belongs to follows the call's Deadline, which every layer already receives: a
 * step makes its span the deadline's current one while it runs, so what runs inside it (a retry
 * inside a poll) nests under it.
 */
import type { Deadline } from '../core/deadline.ts';

export type Attributes = Record<string, string | number | boolean | undefined>;

/** How an operation ended, when not plainly: an error, or a tool result with `isError`. */
export interface Ending {
  error?: unknown;
  toolError?: boolean;
}

export interface Span {
  /** A step inside this span. */
  child(name: string, attributes?: Attributes): Span;
  /** Attributes learned as the work goes on. */
  set(attributes: Attributes): void;
  /** The W3C trace context (`traceparent`, `tracestate`, `baggage`) a request carries in `_meta`. */
  traceContext(): Record<string, string> | undefined;
  end(ending?: Ending): void;
}

/** Starts the span of one client operation, under whatever span the application has active. */
export interface Observer {
  operation(name: string, attributes: Attributes): Span;
  /** True when an operation started now would surely be NO_SPAN: then it is not described. */
  quiet?(): boolean;
}

export const NO_SPAN: Span = Object.freeze({
  child: () => NO_SPAN,
  set: () => {},
  traceContext: () => undefined,
  end: () => {},
});

const current = new WeakMap<Deadline, Span>();

/** Makes `span` the one the work under `deadline` reports to. */
export function bindSpan(deadline: Deadline, span: Span): void {
  if (span !== NO_SPAN) current.set(deadline, span);
}

export function spanOf(deadline: Deadline): Span {
  return current.get(deadline) ?? NO_SPAN;
}

/** Runs `work` as a child span of the deadline's current one, ended with its outcome. */
export async function step<T>(
  deadline: Deadline,
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = spanOf(deadline);
  if (parent === NO_SPAN) return work(NO_SPAN);
  const span = parent.child(name, attributes);
  current.set(deadline, span);
  try {
    const result = await work(span);
    span.end();
    return result;
  } catch (error) {
    span.end({ error });
    throw error;
  } finally {
    current.set(deadline, parent);
  }
}
