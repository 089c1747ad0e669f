/**
 * The MCP-lite probes: its listing endpoints. First when the URL names one of them, else last,
 * once MCP has refused.
 */
import { UnsupportedServerError } from '../../core/errors.ts';
import type { Dialect } from '../dialect.ts';
import { isFinal, type Probe, type ProbeContext, probeStep } from '../probe.ts';
import type { McpLiteConfig } from './binding.ts';
import { hintedBase } from './http/endpoints.ts';

/** A URL ending in /listtools, /calltools, /tools or /rpc starts where MCP-lite is found. */
export const hintedLiteProbe: Probe<McpLiteConfig> = async (context, lite) => {
  const { config } = context;
  if (config.dialect !== 'auto' || config.choice !== 'auto') return undefined;
  if (!hintedBase(lite.url)) return undefined;
  context.learned.liteTried = true;
  return listing(context, lite);
};

/** After MCP refused: the listing under the URL. */
export const liteProbe: Probe<McpLiteConfig> = async (context, lite) => {
  const { config, learned } = context;
  if (config.dialect !== 'auto' || !learned.refused || learned.liteTried) return undefined;
  return listing(context, lite);
};

/**
 * Lists again from a kept verdict, or because the options name MCP-lite; a listing that does
 * not answer is an error. A grpc URL is MCP-lite's gRPC binding: its listing is the first request.
 */
export async function resumeLite(context: ProbeContext, lite: McpLiteConfig): Promise<Dialect> {
  if (context.config.on === 'grpc') {
    const { McpLiteDialect } = await import('./index.ts');
    return McpLiteDialect.overGrpc(lite, context.events, context.deadline);
  }
  const dialect = await listing(context, lite);
  if (!dialect) throw new UnsupportedServerError(context.misses, { url: context.config.key });
  return dialect;
}

async function listing(context: ProbeContext, lite: McpLiteConfig): Promise<Dialect | undefined> {
  const { misses } = context;
  // The dialect loads only for a server that may speak it.
  const { McpLiteDialect } = await import('./index.ts');
  let found: Awaited<ReturnType<typeof McpLiteDialect.probe>>;
  try {
    found = await probeStep(context.deadline, 'MCP-lite listing', () =>
      McpLiteDialect.probe(lite, context.events, context.deadline),
    );
  } catch (error) {
    // MCP-lite is a guess here, not the verdict: its failure is reported with the others.
    if (isFinal(error)) throw error;
    misses.push(`MCP-lite listing: ${(error as Error).message}`);
    return undefined;
  }
  if (!(found instanceof McpLiteDialect)) {
    misses.push(...found.misses);
    return undefined;
  }
  await context.remember({ dialect: 'mcp-lite', version: found.server.protocolVersion });
  return found;
}
