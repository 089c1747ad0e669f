/**
 * The Webtools probe: GET `{url}/`, the webtool's metadata. Tried when the modern probe was
 * answered by a Webtools envelope, or when an MCP probe found JSON where MCP has none.
 */
import { ContentTypeError } from '../../core/errors.ts';
import type { Dialect } from '../dialect.ts';
import { isFinal, type Probe, type ProbeContext, probeStep } from '../probe.ts';
import type { WebtoolsConfig } from './index.ts';

export const webtoolsProbe: Probe<WebtoolsConfig> = async (context, webtools) => {
  const { config, learned, misses } = context;
  if (config.dialect !== 'auto') return undefined;
  // The envelope said Webtools: its failure is the answer, not one miss among others.
  if (learned.envelope) return resumeWebtools(context, webtools);
  const cause = learned.cause;
  if (
    !learned.refused ||
    !(cause instanceof ContentTypeError) ||
    cause.contentType !== 'application/json'
  ) {
    return undefined;
  }
  try {
    return await resumeWebtools(context, webtools);
  } catch (error) {
    if (isFinal(error)) throw error;
    misses.push(`GET (Webtools): ${(error as Error).message}`);
    return undefined;
  }
};

/** Connects to the webtool, and keeps the verdict. */
export async function resumeWebtools(
  context: ProbeContext,
  webtools: WebtoolsConfig,
): Promise<Dialect> {
  // The dialect loads only for a server that may speak it.
  const { WebtoolsDialect } = await import('./index.ts');
  const dialect = await probeStep(context.deadline, 'Webtools metadata', () =>
    WebtoolsDialect.connect(webtools, context.events, context.deadline),
  );
  await context.remember({ dialect: 'webtools', version: dialect.server.serverInfo.version });
  return dialect;
}
