/**
 * Which dialect and revision a server speaks, in the fewest round trips: the probes of its
 * channel, in order, until one answers.
 *
 * A modern server costs one request before the first call (`server/discover`, whose answer also
 * describes the server); a legacy one costs that failed probe and then `initialize`. A server is
 * modern only when it says so in a modern way: a discover result, or one of the modern error
 * codes. An authorization failure, a 429, a 5xx or a broken connection says nothing about the
 * era and never makes the client step down. The verdict is kept per server, so the next client
 * for the same server skips the probe; a kept verdict that fails is dropped and re-probed.
 *
 * Each dialect owns its probe (`dialects/<name>/probe.ts`); the lists below say which probes a
 * channel runs, and in which order. A new dialect or channel is a folder and a line here.
 */
import type { Deadline } from '../core/deadline.ts';
import { UnsupportedServerError } from '../core/errors.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { isGrpcUrl } from '../dialects/mcp-lite/grpc/url.ts';
import { hintedLiteProbe, liteProbe, resumeLite } from '../dialects/mcp-lite/probe.ts';
import { httpSseProbe, resumeSse } from '../dialects/mcp-sse/probe.ts';
import { initializeProbe } from '../dialects/mcp-stateful/probe.ts';
import { discoverProbe } from '../dialects/mcp-stateless/probe.ts';
import {
  isFinal,
  type NegotiationConfig,
  type Probe,
  type ProbeContext,
} from '../dialects/probe.ts';
import type { Verdict } from '../dialects/verdicts.ts';
import { LEGACY_VERSIONS, MODERN_VERSIONS, type ProtocolChoice } from '../dialects/versions.ts';
import { resumeWebtools, webtoolsProbe } from '../dialects/webtools/probe.ts';
import type { ChannelEvents } from '../wire/channels/channel.ts';

export type { NegotiationConfig, Probe } from '../dialects/probe.ts';
export { memoryVerdictStore, type Verdict, type VerdictStore } from '../dialects/verdicts.ts';
export * from '../dialects/versions.ts';

/** Streamable HTTP: MCP-lite first when the URL names it, then MCP, then the other dialects. */
export const HTTP_PROBES: readonly Probe[] = [
  hintedLiteProbe,
  discoverProbe,
  initializeProbe,
  httpSseProbe,
  webtoolsProbe,
  liteProbe,
];

/** stdio: the binding's own order, `server/discover`, then `initialize` on anything else. */
export const STDIO_PROBES: readonly Probe[] = [discoverProbe, initializeProbe];

export async function negotiate(
  config: NegotiationConfig,
  events: ChannelEvents,
  deadline: Deadline,
): Promise<Dialect> {
  // A grpc URL names MCP-lite's gRPC binding: nothing to probe.
  if (config.lite && isGrpcUrl(config.key)) {
    const { McpLiteDialect } = await import('../dialects/mcp-lite/index.ts');
    return McpLiteDialect.overGrpc(config.lite, events, deadline);
  }
  const forced = await forcedDialect(config, events, deadline);
  if (forced) return forced;
  const choice = eraOf(config);
  if (isModern(choice)) {
    const { StatelessDialect } = await import('../dialects/mcp-stateless/index.ts');
    return new StatelessDialect(config.stateless, config.channel, events, choice, undefined);
  }
  if (isLegacy(choice)) return config.legacy(choice, events, deadline);
  if (choice === 'legacy') return config.legacy(LEGACY_VERSIONS[0], events, deadline);
  const context = probeContext(config, events, deadline, async (verdict) => {
    await config.verdicts.set(config.key, verdict);
  });
  if (choice === 'auto') {
    const reused = await reuseVerdict(context);
    if (reused) return reused;
  }
  for (const probe of config.probes) {
    const dialect = await probe(context);
    if (dialect) return dialect;
  }
  const url = config.channel.label;
  throw new UnsupportedServerError(context.misses, {
    url,
    cause: context.learned.cause,
    hint: config.dialect === 'auto' ? wrongPathHint(url, context.misses) : undefined,
  });
}

/** Every probe a 404: nothing is served at this path. Say where MCP servers usually are. */
function wrongPathHint(url: string, probes: string[]): string | undefined {
  if (probes.length === 0 || !probes.every((probe) => /HTTP 404\b/.test(probe))) return undefined;
  const { origin, pathname } = new URL(url);
  return (
    `Nothing is served at ${pathname}: every path above answered 404. MCP servers usually ` +
    `listen at ${origin}/mcp (Streamable HTTP) or ${origin}/sse (HTTP+SSE)`
  );
}

/** A fresh context for one run of probes: nothing learned yet. */
function probeContext(
  config: NegotiationConfig,
  events: ChannelEvents,
  deadline: Deadline,
  remember: ProbeContext['remember'],
): ProbeContext {
  const learned = {
    hints: [],
    envelope: false,
    sseFallback: false,
    refused: false,
    cause: undefined,
    liteTried: false,
  };
  return { config, events, deadline, misses: [], learned, remember };
}

/** A dialect the options name outright: no probing for the others. */
async function forcedDialect(
  config: NegotiationConfig,
  events: ChannelEvents,
  deadline: Deadline,
): Promise<Dialect | undefined> {
  // A dialect named by the options is not a verdict: the next client is told the same.
  const context = probeContext(config, events, deadline, async () => {});
  switch (config.dialect) {
    case 'mcp-sse':
      return resumeSse(context);
    case 'webtools':
      return resumeWebtools(context);
    case 'mcp-lite':
      return resumeLite(context);
    default:
      return undefined;
  }
}

/** The era a forced MCP dialect implies, when the protocol choice leaves it open. */
function eraOf(config: NegotiationConfig): ProtocolChoice {
  if (config.choice !== 'auto') return config.choice;
  if (config.dialect === 'mcp-stateless') return 'modern';
  if (config.dialect === 'mcp-stateful') return 'legacy';
  return 'auto';
}

/** A verdict kept for this server: used when it still works, dropped when it does not. */
async function reuseVerdict(context: ProbeContext): Promise<Dialect | undefined> {
  const { config } = context;
  const kept = await config.verdicts.get(config.key);
  if (kept?.era === 'modern') return keptModern(context, kept);
  if (kept === undefined) return undefined;
  if (config.dialect !== 'auto' && kept.era !== 'legacy') return undefined;
  try {
    return await resume(context, kept);
  } catch (error) {
    if (isFinal(error)) throw error;
    await config.verdicts.delete(config.key);
    return undefined;
  }
}

/** A modern server described by a discover answer still fresh: spoken to without a probe. */
async function keptModern(context: ProbeContext, kept: Verdict): Promise<Dialect | undefined> {
  const { config, events } = context;
  const fresh = kept.freshUntil !== undefined && Date.parse(kept.freshUntil) > Date.now();
  if (!fresh || !kept.discovered || !(MODERN_VERSIONS as readonly string[]).includes(kept.version))
    return undefined;
  const { StatelessDialect } = await import('../dialects/mcp-stateless/index.ts');
  return new StatelessDialect(
    config.stateless,
    config.channel,
    events,
    kept.version,
    kept.discovered,
  );
}

/** Connects the way a kept verdict says, with no probe. */
function resume(context: ProbeContext, kept: Verdict): Promise<Dialect> {
  if (kept.era === 'mcp-lite') return resumeLite(context);
  if (kept.era === 'webtools') return resumeWebtools(context);
  if (kept.transport === 'http+sse') return resumeSse(context, kept);
  return context.config.legacy(kept.version, context.events, context.deadline);
}

function isModern(choice: ProtocolChoice): choice is (typeof MODERN_VERSIONS)[number] {
  return (MODERN_VERSIONS as readonly string[]).includes(choice);
}

function isLegacy(choice: ProtocolChoice): choice is (typeof LEGACY_VERSIONS)[number] {
  return (LEGACY_VERSIONS as readonly string[]).includes(choice);
}
