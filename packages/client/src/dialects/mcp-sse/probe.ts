/**
 * The HTTP+SSE probe (2024-11-05): tried only when `initialize` was refused in the way the
 * transport spec says calls for it. A GET answered with JSON instead is noted for Webtools.
 */
import { ContentTypeError } from '../../core/errors.ts';
import type { Dialect } from '../dialect.ts';
import { isFinal, type Probe, type ProbeContext, probeStep } from '../probe.ts';
import type { Verdict } from '../verdicts.ts';

export const httpSseProbe: Probe = async (context) => {
  const { config, learned, misses } = context;
  if (!learned.sseFallback || !config.sse) return undefined;
  try {
    return await resumeSse(context);
  } catch (fallback) {
    if (isFinal(fallback)) throw fallback;
    // What the user sees is the original failure; the fallback's is listed beside it.
    misses.push(`GET (HTTP+SSE): ${(fallback as Error).message}`);
    if (fallback instanceof ContentTypeError && fallback.contentType === 'application/json') {
      learned.cause = fallback;
    }
    return undefined;
  }
};

/** Connects over HTTP+SSE, and keeps the verdict. */
export async function resumeSse(context: ProbeContext, _kept?: Verdict): Promise<Dialect> {
  // The transport loads only for a server that needs it.
  const { connectSse } = await import('./index.ts');
  const dialect = await probeStep(context.deadline, 'HTTP+SSE', () =>
    connectSse(context.config.sse!, context.events, context.deadline),
  );
  await context.remember({
    era: 'legacy',
    version: dialect.server.protocolVersion,
    transport: 'http+sse',
  });
  return dialect;
}
