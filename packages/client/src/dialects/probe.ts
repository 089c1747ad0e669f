/**
 * One step of negotiation. Each dialect owns the probe that finds it; negotiation runs them in
 * order until one answers, and what each probe learned on the way (the revisions a refusal named,
 * how `initialize` was refused) is there for the ones after it.
 */
import type { Deadline } from '../core/deadline.ts';
import {
  AbortedError,
  AuthorizationError,
  ClientClosedError,
  TimeoutError,
} from '../core/errors.ts';
import { step } from '../telemetry/span.ts';
import type { ChannelEvents } from '../wire/channels/channel.ts';
import type { Dialect } from './dialect.ts';
import type { Shared } from './shared.ts';
import type { Verdict, VerdictStore } from './verdicts.ts';
import type { ProtocolChoice } from './versions.ts';

/**
 * What negotiation needs: the choices, where verdicts are kept, and what the client shares with
 * the dialects (each builds its own configuration from it, see `DialectDescriptor.configure`).
 */
export interface NegotiationConfig extends Shared {
  choice: ProtocolChoice;
  /** Which dialect to speak (a `DialectChoice`); the MCP ones still follow `choice`. */
  dialect: string;
  verdicts: VerdictStore;
  /** Where this server's verdict is kept: its URL, or a digest of its command line. */
  key: string;
  /**
   * How long a server may stay silent on the modern probe before it is taken for a legacy one
   * (stdio, where silence is an answer). Over HTTP only the call's deadline bounds it.
   */
  silenceMs?: number | undefined;
}

/** What earlier probes learned, for the later ones. */
export interface Learned {
  /** Revisions a refusal named: `initialize` offers the best of them. */
  hints: string[];
  /** A revision the server listed as its own (a dual-era `server/discover`): no fallback then. */
  offer?: string | undefined;
  /** The modern probe was answered with a Webtools envelope. */
  envelope: boolean;
  /** `initialize` was refused with 400, 404 or 405: the HTTP+SSE transport may be there. */
  sseFallback: boolean;
  /** MCP was refused in a way that says nothing modern: the other dialects may be tried. */
  refused: boolean;
  /** The error an UnsupportedServerError carries, when nothing answers. */
  cause: unknown;
  /** MCP-lite's listing was tried already (its endpoints were named by the URL). */
  liteTried: boolean;
}

export interface ProbeContext {
  readonly config: NegotiationConfig;
  readonly events: ChannelEvents;
  readonly deadline: Deadline;
  /** What each probe got, in order: the UnsupportedServerError lists them. */
  readonly misses: string[];
  readonly learned: Learned;
  /** Keeps what was found for the next client of the same server. */
  remember(verdict: Verdict): Promise<void>;
}

/**
 * Tries the server: its dialect when the server answers in that dialect's way, undefined when it
 * does not (or the probe does not apply). Throws only what ends negotiation: the caller stopped,
 * time ran out, or the server answered in a way that rules out every other dialect. `config` is
 * the probing dialect's own configuration.
 */
export type Probe<Config> = (context: ProbeContext, config: Config) => Promise<Dialect | undefined>;

/**
 * Failures that say nothing about the server's dialect: the caller stopped, time ran out, or
 * authorization failed for good (no other dialect would be let in either).
 */
export function isFinal(error: unknown): boolean {
  return (
    error instanceof AuthorizationError ||
    error instanceof AbortedError ||
    error instanceof TimeoutError ||
    error instanceof ClientClosedError
  );
}

/** The revisions an answer's text names, for `initialize` to choose from. */
export function datesIn(text: string): string[] {
  // Distinct and few: a server's error text may repeat a date a million times.
  return [...new Set(text.match(/\b\d{4}-\d{2}-\d{2}\b/g))].slice(0, MAX_HINTS);
}

/** More revisions than MCP will ever have, and few enough for anything that reads them. */
const MAX_HINTS = 32;

/** One request of negotiation, as a `probe` span of the connect. */
export function probeStep<T>(deadline: Deadline, what: string, send: () => Promise<T>): Promise<T> {
  return step(deadline, `probe ${what}`, {}, send);
}
