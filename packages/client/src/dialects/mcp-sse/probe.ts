/**
 * The HTTP+SSE probe (2024-11-05): tried only when `initialize` was refused in the way the
 * transport spec says calls for it. A GET answered with JSON instead is noted for Webtools.
 */
import { ContentTypeError } from '../../core/errors.ts';
import type { Dialect } from '../dialect.ts';
import { isFinal, type Probe, type ProbeContext, probeStep } from '../probe.ts';
import type { SseConfig } from './index.ts';

export const httpSseProbe: Probe<SseConfig> = async (context, config) => {
  const { learned, misses } = context;
  if (!learned.sseFallback) return undefined;
  try {
    return await resumeSse(context, config);
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
export async function resumeSse(context: ProbeContext, config: SseConfig): Promise<Dialect> {
  // The transport loads only for a server that needs it.
  const { connectSse } = await import('./index.ts');
  const dialect = await probeStep(context.deadline, 'HTTP+SSE', () =>
    connectSse(config, context.events, context.deadline),
  );
  await context.remember({ dialect: 'mcp-sse', version: dialect.server.protocolVersion });
  return dialect;
}
