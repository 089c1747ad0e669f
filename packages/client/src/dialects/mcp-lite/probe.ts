/**
 * The MCP-lite probes: its listing endpoints. First when the URL names one of them, else last,
 * once MCP has refused.
 */
import { UnsupportedServerError } from '../../core/errors.ts';
import type { Dialect } from '../dialect.ts';
import { isFinal, type Probe, type ProbeContext, probeStep } from '../probe.ts';
import { hintedBase } from './http/endpoints.ts';

/** A URL ending in /listtools, /calltools, /tools or /rpc starts where MCP-lite is found. */
export const hintedLiteProbe: Probe = async (context) => {
  const { config } = context;
  if (config.dialect !== 'auto' || config.choice !== 'auto' || !config.lite) return undefined;
  if (!hintedBase(config.lite.url)) return undefined;
  context.learned.liteTried = true;
  return listing(context);
};

/** After MCP refused: the listing under the URL. */
export const liteProbe: Probe = async (context) => {
  const { config, learned } = context;
  if (config.dialect !== 'auto' || !config.lite || !learned.refused || learned.liteTried) {
    return undefined;
  }
  return listing(context);
};

/** Lists again from a kept verdict; a listing that no longer answers is an error. */
export async function resumeLite(context: ProbeContext): Promise<Dialect> {
  const dialect = await listing(context);
  if (!dialect) throw new UnsupportedServerError(context.misses, { url: context.config.key });
  return dialect;
}

async function listing(context: ProbeContext): Promise<Dialect | undefined> {
  const { config, misses } = context;
  // The dialect loads only for a server that may speak it.
  const { McpLiteDialect } = await import('./index.ts');
  let lite: Awaited<ReturnType<typeof McpLiteDialect.probe>>;
  try {
    lite = await probeStep(context.deadline, 'MCP-lite listing', () =>
      McpLiteDialect.probe(config.lite!, context.events, context.deadline),
    );
  } catch (error) {
    // MCP-lite is a guess here, not the verdict: its failure is reported with the others.
    if (isFinal(error)) throw error;
    misses.push(`MCP-lite listing: ${(error as Error).message}`);
    return undefined;
  }
  if (!(lite instanceof McpLiteDialect)) {
    misses.push(...lite.misses);
    return undefined;
  }
  await context.remember({ era: 'mcp-lite', version: lite.server.protocolVersion });
  return lite;
}
