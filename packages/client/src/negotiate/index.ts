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
 * Which dialects there are, where each runs, its probes and their order come from the registry
 * (`dialects/registry.ts`): nothing here names a dialect.
 */
import type { Deadline } from '../core/deadline.ts';
import { UnsupportedServerError } from '../core/errors.ts';
import type { DialectDescriptor } from '../dialects/descriptor.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { isFinal, type NegotiationConfig, type ProbeContext } from '../dialects/probe.ts';
import { dialectsFor } from '../dialects/registered.ts';
import type { ChannelEvents } from '../wire/channels/channel.ts';

export type { NegotiationConfig, Probe } from '../dialects/probe.ts';
export { memoryVerdictStore, type Verdict, type VerdictStore } from '../dialects/verdicts.ts';
export * from '../dialects/versions.ts';

export async function negotiate(
  config: NegotiationConfig,
  events: ChannelEvents,
  deadline: Deadline,
): Promise<Dialect> {
  // What the options allow on this channel: the dialect they name, and the protocol they choose.
  const allowed = dialectsFor(config.dialect, config.on).filter((descriptor) =>
    descriptor.protocols.includes(config.choice),
  );
  const configs = new Map<DialectDescriptor, Promise<unknown>>();
  const configOf = (descriptor: DialectDescriptor) => {
    let made = configs.get(descriptor);
    if (!made) {
      made = Promise.resolve(descriptor.configure(config));
      configs.set(descriptor, made);
    }
    return made;
  };
  // The options leave one dialect: spoken to with no probe, and no verdict kept (the next
  // client is told the same), unless it needs a probe to know the revision.
  const only = allowed.length === 1 ? allowed[0]! : undefined;
  if (only?.resume) {
    const context = probeContext(config, events, deadline, async () => {});
    const dialect = await only.resume(context, await configOf(only));
    if (dialect) return dialect;
  }
  const context = probeContext(config, events, deadline, async (verdict) => {
    await config.verdicts.set(config.key, verdict);
  });
  const reused = await reuseVerdict(context, allowed, configOf);
  if (reused) return reused;
  const probes = allowed
    .flatMap((descriptor) =>
      descriptor.probes
        .filter((probe) => probe.on === config.on)
        .map((probe) => ({ ...probe, descriptor })),
    )
    .sort((a, b) => a.rank - b.rank);
  for (const probe of probes) {
    const dialect = await probe.run(context, await configOf(probe.descriptor));
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

/**
 * A verdict kept for this server: used when it still works, dropped when it does not or when it
 * names no dialect of this channel (an older client's `{ era, transport }`, say). One for a
 * dialect the options leave out is kept for the clients it suits.
 */
async function reuseVerdict(
  context: ProbeContext,
  allowed: readonly DialectDescriptor[],
  configOf: (descriptor: DialectDescriptor) => Promise<unknown>,
): Promise<Dialect | undefined> {
  const { config } = context;
  const kept = await config.verdicts.get(config.key);
  if (!kept) return undefined;
  const known = dialectsFor('auto', config.on).find(({ name }) => name === kept.dialect);
  if (!known) {
    await config.verdicts.delete(config.key);
    return undefined;
  }
  if (!allowed.includes(known) || !known.resume) return undefined;
  try {
    return await known.resume(context, await configOf(known), kept);
  } catch (error) {
    if (isFinal(error)) throw error;
    await config.verdicts.delete(config.key);
    return undefined;
  }
}
