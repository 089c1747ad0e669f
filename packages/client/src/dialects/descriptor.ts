/**
 * What a dialect tells the rest of the client about itself: one descriptor per dialect folder
 * (`<name>/descriptor.ts`), listed in `registry.ts`. Negotiation, the connection and the options
 * read descriptors, never a dialect's own modules, so a new dialect is its folder and one line.
 *
 * A descriptor is loaded with the package (the options check against it): it imports types and
 * light modules only, and `import()`s its dialect when a probe or a resume needs it.
 */
import type { Dialect } from './dialect.ts';
import type { ProbeContext } from './probe.ts';
import type { DialectOptions, Medium, Shared } from './shared.ts';
import type { Verdict } from './verdicts.ts';

/**
 * One probe of a dialect on one kind of channel. Negotiation runs the probes of a channel by
 * `rank`, lowest first, whichever dialect they belong to.
 */
export interface RankedProbe<Config> {
  on: Medium;
  rank: number;
  /** The dialect when the server answers its way; undefined when not (see `Probe`). */
  run(context: ProbeContext, config: Config): Promise<Dialect | undefined>;
}

export interface DialectDescriptor<Config = unknown, Name extends string = string> {
  /** What `client.dialect` reports and the `dialect` option takes. */
  name: Name;
  /** The era of MCP it speaks, or undefined for a dialect that is not MCP (`'mcp'` leaves it out). */
  era: 'modern' | 'legacy' | undefined;
  runsOn: readonly Medium[];
  /** The `protocolVersion` choices it can be spoken under. */
  protocols: readonly string[];
  probes: readonly RankedProbe<Config>[];
  /**
   * Connects with no probe: the way a kept verdict says, or (without one) because the options
   * leave this dialect alone. Undefined when it cannot (a verdict gone stale): the probes run.
   */
  resume?(context: ProbeContext, config: Config, kept?: Verdict): Promise<Dialect | undefined>;
  /** The dialect's configuration, from what the client shares; asked only if it is spoken to. */
  configure(shared: Shared): Config | Promise<Config>;
  /** Throws a TypeError (`usageError`) for options this dialect cannot take on `on`. */
  checkOptions?(options: DialectOptions, on: Medium): void;
}

/** Keeps the descriptor's name a literal: `DialectChoice` is made of the names. */
export function defineDialect<const Name extends string, Config>(
  descriptor: DialectDescriptor<Config, Name>,
): DialectDescriptor<Config, Name> {
  return descriptor;
}
