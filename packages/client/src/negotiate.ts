/**
 * Which dialect and revision a URL speaks, in the fewest round trips.
 *
 * A modern server costs one request before the first call (`server/discover`, whose answer also
 * describes the server); a legacy one costs that failed probe and then `initialize`. A server is
 * modern only when it says so in a modern way: a discover result, or one of the modern error
 * codes. An authorization failure, a 429, a 5xx or a broken connection says nothing about the
 * era and never makes the client step down. The verdict is kept per endpoint URL, so the next
 * client for the same URL skips the probe; a kept verdict that fails is dropped and re-probed.
 */
import type { Deadline } from './deadline.ts';
import type { Dialect, DialectEvents } from './dialects/dialect.ts';
import { isGrpcUrl } from './dialects/mcp-lite/grpc/url.ts';
import { hintedBase } from './dialects/mcp-lite/http/endpoints.ts';
import { type McpLiteConfig, McpLiteDialect } from './dialects/mcp-lite/index.ts';
import { SseDialect } from './dialects/mcp-sse/index.ts';
import { type StatefulConfig, StatefulDialect } from './dialects/mcp-stateful/index.ts';
import {
  answerOf,
  post,
  type StatelessConfig,
  StatelessDialect,
} from './dialects/mcp-stateless/index.ts';
import { isEnvelope } from './dialects/webtools/envelope.ts';
import { type WebtoolsConfig, WebtoolsDialect } from './dialects/webtools/index.ts';
import {
  AbortedError,
  AuthorizationError,
  ClientClosedError,
  ContentTypeError,
  fromJsonRpcError,
  HttpStatusError,
  JsonRpcError,
  MalformedMessageError,
  TimeoutError,
  UnsupportedServerError,
  UnsupportedVersionError,
} from './errors.ts';
import { isObject, type JsonObject, request } from './jsonrpc.ts';
import { step } from './telemetry/span.ts';
import { withRetry } from './transport/retry.ts';

/** The revisions of each era the client speaks, newest first. */
export const MODERN_VERSIONS = ['2026-07-28'] as const;
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** `'auto'` negotiates; an era or a revision pins it (a pinned revision sends no probe). */
export type ProtocolChoice =
  | 'auto'
  | 'modern'
  | 'legacy'
  | (typeof MODERN_VERSIONS)[number]
  | (typeof LEGACY_VERSIONS)[number];

/**
 * Which dialect to speak. `'auto'` finds out; `'mcp'` tries only MCP's; a dialect's name (what
 * `client.dialect` reports) speaks that one without probing for the others.
 */
export const DIALECTS = [
  'auto',
  'mcp',
  'mcp-stateless',
  'mcp-stateful',
  'mcp-sse',
  'mcp-lite',
  'webtools',
] as const;
export type DialectChoice = (typeof DIALECTS)[number];

/** What a probe learned about an endpoint: its era and the revision agreed. */
export interface Verdict {
  /** MCP's era, or one of the other dialects (whose `version` is the dialect's or the webtool's). */
  era: 'modern' | 'legacy' | 'mcp-lite' | 'webtools';
  version: string;
  /** Set when the server speaks the deprecated HTTP+SSE transport (2024-11-05) instead. */
  transport?: 'http+sse';
  /**
   * A modern server's `server/discover` answer, kept while the server allows (`ttlMs`, public
   * `cacheScope`): until `freshUntil` (ISO 8601) the next client for the URL sends no probe.
   */
  discovered?: JsonObject;
  freshUntil?: string;
}

/** Where verdicts are kept. The default is in memory and shared by every client in the process. */
export interface VerdictStore {
  get(url: string): Verdict | undefined | Promise<Verdict | undefined>;
  set(url: string, verdict: Verdict): void | Promise<void>;
  delete(url: string): void | Promise<void>;
}

export function memoryVerdictStore(): VerdictStore {
  const verdicts = new Map<string, Verdict>();
  return {
    get: (url) => verdicts.get(url),
    set: (url, verdict) => void verdicts.set(url, verdict),
    delete: (url) => void verdicts.delete(url),
  };
}

export const sharedVerdicts: VerdictStore = memoryVerdictStore();

export interface NegotiationConfig {
  choice: ProtocolChoice;
  verdicts: VerdictStore;
  stateless: StatelessConfig;
  /** The stateful dialect's configuration, but for the revision offered in `initialize`. */
  stateful: Omit<StatefulConfig, 'protocolVersion'>;
  /** Which dialect to speak; the MCP ones still follow `choice`. @default 'auto' */
  dialect?: DialectChoice;
  lite?: McpLiteConfig;
  webtools?: WebtoolsConfig;
}

/** Statuses a legacy server gives a request it does not understand. */
const NOT_MODERN = new Set([400, 404, 405, 406, 415]);
const FALL_BACK_TO_SSE = new Set([400, 404, 405]);
const MODERN_CODES = new Set([-32020, -32021, -32022]);
const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;

type Probe =
  | { kind: 'discovered'; result: JsonObject }
  | { kind: 'unsupported-version'; data: unknown }
  | { kind: 'modern-error'; error: { code: number; message: string; data?: unknown } }
  | { kind: 'not-modern'; summary: string; hints: string[] }
  /** The answer was a Webtools envelope (a POST without an action). */
  | { kind: 'webtools'; summary: string };

export async function negotiate(
  config: NegotiationConfig,
  events: DialectEvents,
  deadline: Deadline,
): Promise<Dialect> {
  // A grpc URL names MCP-lite's gRPC binding: nothing to probe.
  if (isGrpcUrl(config.stateless.url)) {
    return McpLiteDialect.overGrpc(required(config.lite, 'lite'), events, deadline);
  }
  const forced = await forcedDialect(config, events, deadline);
  if (forced) return forced;
  const choice = eraOf(config);
  if (isModern(choice)) return new StatelessDialect(config.stateless, events, choice, undefined);
  if (isLegacy(choice)) return legacy(config, events, deadline, choice);
  if (choice === 'legacy') return legacy(config, events, deadline, LEGACY_VERSIONS[0]);
  const early: string[] = [];
  if (choice === 'auto') {
    const reused = await reuseVerdict(config, events, deadline);
    if (reused) return reused;
    // A URL naming an MCP-lite endpoint starts where MCP-lite is found.
    if (config.dialect === 'auto' && hintedBase(config.stateless.url)) {
      const lite = await liteProbe(config, events, deadline);
      if (!Array.isArray(lite)) return lite;
      early.push(...lite);
    }
  }
  const probe = await discover(config.stateless, MODERN_VERSIONS[0], deadline);
  switch (probe.kind) {
    case 'webtools':
      if (config.dialect === 'auto') return webtools(config, events, deadline);
      return legacyWithFallback(config, events, deadline, {
        kind: 'not-modern',
        summary: probe.summary,
        hints: [],
      });
    case 'discovered':
      return choose(
        config,
        events,
        deadline,
        listOf(probe.result['supportedVersions']),
        probe.result,
      );
    case 'unsupported-version':
      return choose(
        config,
        events,
        deadline,
        listOf(isObject(probe.data) ? probe.data['supported'] : undefined),
        undefined,
      );
    case 'modern-error':
      // A modern server that rejects how we asked: our bug or a missing capability, never a downgrade.
      throw fromJsonRpcError(probe.error, { url: config.stateless.url, method: 'server/discover' });
    case 'not-modern':
      if (choice === 'modern')
        throw new UnsupportedServerError([...early, `server/discover: ${probe.summary}`], {
          url: config.stateless.url,
        });
      return legacyWithFallback(config, events, deadline, probe, early);
  }
}

/** A dialect the options name outright: no probing for the others. */
async function forcedDialect(
  config: NegotiationConfig,
  events: DialectEvents,
  deadline: Deadline,
): Promise<Dialect | undefined> {
  switch (config.dialect) {
    case 'mcp-sse':
      return SseDialect.connect(sseConfig(config), events, deadline);
    case 'webtools':
      return WebtoolsDialect.connect(required(config.webtools, 'webtools'), events, deadline);
    case 'mcp-lite': {
      const lite = await McpLiteDialect.probe(required(config.lite, 'lite'), events, deadline);
      if (lite instanceof McpLiteDialect) return lite;
      throw new UnsupportedServerError(lite.misses, { url: config.stateless.url });
    }
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

function required<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new TypeError(`negotiation needs the ${name} configuration`);
  return value;
}

/** MCP-lite's listing, kept as the verdict when it answers; otherwise what each endpoint said. */
async function liteProbe(
  config: NegotiationConfig,
  events: DialectEvents,
  deadline: Deadline,
): Promise<Dialect | string[]> {
  if (!config.lite) return [];
  let lite: Awaited<ReturnType<typeof McpLiteDialect.probe>>;
  try {
    const liteConfig = config.lite;
    lite = await probe(deadline, 'MCP-lite listing', () =>
      McpLiteDialect.probe(liteConfig, events, deadline),
    );
  } catch (error) {
    // MCP-lite is a guess here, not the verdict: its failure is reported with the others.
    if (isFinal(error)) throw error;
    return [`MCP-lite listing: ${(error as Error).message}`];
  }
  if (!(lite instanceof McpLiteDialect)) return lite.misses;
  await config.verdicts.set(config.stateless.url, {
    era: 'mcp-lite',
    version: lite.server.protocolVersion,
  });
  return lite;
}

async function webtools(
  config: NegotiationConfig,
  events: DialectEvents,
  deadline: Deadline,
): Promise<Dialect> {
  const dialect = await probe(deadline, 'Webtools metadata', () =>
    WebtoolsDialect.connect(required(config.webtools, 'webtools'), events, deadline),
  );
  await config.verdicts.set(config.stateless.url, {
    era: 'webtools',
    version: dialect.server.serverInfo.version,
  });
  return dialect;
}

/**
 * MCP's probes all failed: a webtool whose metadata came back to the GET, then MCP-lite. When
 * neither answers, one error lists what every probe got.
 */
async function otherDialects(
  config: NegotiationConfig,
  events: DialectEvents,
  deadline: Deadline,
  probes: string[],
  cause: unknown,
  liteTried: boolean,
): Promise<Dialect> {
  const url = config.stateless.url;
  if (config.dialect !== 'auto') throw new UnsupportedServerError(probes, { url, cause });
  const all = [...probes];
  if (cause instanceof ContentTypeError && cause.contentType === 'application/json') {
    try {
      return await webtools(config, events, deadline);
    } catch (error) {
      if (isFinal(error)) throw error;
      all.push(`GET (Webtools): ${(error as Error).message}`);
    }
  }
  const lite = liteTried ? [] : await liteProbe(config, events, deadline);
  if (!Array.isArray(lite)) return lite;
  const tried = [...all, ...lite];
  throw new UnsupportedServerError(tried, { url, cause, hint: wrongPathHint(url, tried) });
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

/** A legacy verdict kept for this URL: used when it still works, dropped when it does not. */
async function reuseVerdict(
  config: NegotiationConfig,
  events: DialectEvents,
  deadline: Deadline,
): Promise<Dialect | undefined> {
  const url = config.stateless.url;
  const kept = await config.verdicts.get(url);
  if (kept?.era === 'modern') return keptModern(config, events, kept);
  if (kept === undefined) return undefined;
  if (config.dialect !== 'auto' && kept.era !== 'legacy') return undefined;
  try {
    if (kept.era === 'mcp-lite') {
      const lite = await liteProbe(config, events, deadline);
      if (!Array.isArray(lite)) return lite;
      throw new UnsupportedServerError(lite, { url });
    }
    if (kept.era === 'webtools') return await webtools(config, events, deadline);
    if (kept.transport === 'http+sse') return await sse(config, events, deadline);
    return await legacy(config, events, deadline, kept.version);
  } catch (error) {
    if (isFinal(error)) throw error;
    await config.verdicts.delete(url);
    return undefined;
  }
}

/** A modern server described by a discover answer still fresh: spoken to without a probe. */
function keptModern(
  config: NegotiationConfig,
  events: DialectEvents,
  kept: Verdict,
): Dialect | undefined {
  const fresh = kept.freshUntil !== undefined && Date.parse(kept.freshUntil) > Date.now();
  if (!fresh || !kept.discovered || !(MODERN_VERSIONS as readonly string[]).includes(kept.version))
    return undefined;
  return new StatelessDialect(config.stateless, events, kept.version, kept.discovered);
}

/** The verdict for a modern server: its discover answer kept as long as the server allows. */
function modernVerdict(version: string, discovered: JsonObject | undefined): Verdict {
  const ttlMs = discovered?.['ttlMs'];
  if (discovered?.['cacheScope'] !== 'public' || typeof ttlMs !== 'number' || !(ttlMs > 0)) {
    return { era: 'modern', version };
  }
  const freshUntil = new Date(Date.now() + ttlMs).toISOString();
  return { era: 'modern', version, discovered, freshUntil };
}

/**
 * A modern server listed the revisions it speaks: the newest modern one both sides speak, or
 * (for a dual-era server) the newest legacy one, or an UnsupportedVersionError.
 */
async function choose(
  config: NegotiationConfig,
  events: DialectEvents,
  deadline: Deadline,
  supported: string[],
  discovered: JsonObject | undefined,
): Promise<Dialect> {
  const url = config.stateless.url;
  const modern = MODERN_VERSIONS.find((version) => supported.includes(version));
  if (modern) {
    // A version error describes nothing: ask again in the revision it allows.
    const description = discovered ?? (await discoveredWith(config, modern, deadline));
    await config.verdicts.set(url, modernVerdict(modern, description));
    return new StatelessDialect(config.stateless, events, modern, description);
  }
  const older = LEGACY_VERSIONS.find((version) => supported.includes(version));
  if (older && config.choice === 'auto')
    return remember(config, legacy(config, events, deadline, older), older);
  throw new UnsupportedVersionError(
    supported.join(', ') || '(none)',
    [...MODERN_VERSIONS, ...LEGACY_VERSIONS],
    {
      url,
      method: 'server/discover',
    },
  );
}

async function discoveredWith(
  config: NegotiationConfig,
  version: string,
  deadline: Deadline,
): Promise<JsonObject | undefined> {
  const answer = await discover(config.stateless, version, deadline);
  return answer.kind === 'discovered' ? answer.result : undefined;
}

/**
 * A legacy server: `initialize`, offering the best revision its answer hinted at. Only when that
 * POST is refused with 400, 404 or 405 does the transport spec's fallback apply: HTTP+SSE.
 */
async function legacyWithFallback(
  config: NegotiationConfig,
  events: DialectEvents,
  deadline: Deadline,
  probe: Extract<Probe, { kind: 'not-modern' }>,
  early: string[] = [],
): Promise<Dialect> {
  const url = config.stateless.url;
  const offered =
    LEGACY_VERSIONS.find((version) => probe.hints.includes(version)) ?? LEGACY_VERSIONS[0];
  try {
    return await remember(config, legacy(config, events, deadline, offered), offered);
  } catch (error) {
    // A refusal says nothing modern: an HTTP error, something that is not MCP, or a JSON-RPC error
    // other than the modern codes riding on an error status.
    const rpcRefusal =
      error instanceof JsonRpcError &&
      (error.status ?? 200) >= 400 &&
      !MODERN_CODES.has(error.rpcCode);
    const refusal =
      rpcRefusal ||
      error instanceof HttpStatusError ||
      error instanceof ContentTypeError ||
      error instanceof MalformedMessageError;
    if (isFinal(error) || !refusal) throw error;
    const probes = [...early, `server/discover: ${probe.summary}`, `initialize: ${error.message}`];
    if (
      !((error instanceof HttpStatusError || rpcRefusal) && FALL_BACK_TO_SSE.has(error.status ?? 0))
    ) {
      return otherDialects(config, events, deadline, probes, error, early.length > 0);
    }
    try {
      const dialect = await sse(config, events, deadline);
      await config.verdicts.set(url, {
        era: 'legacy',
        version: dialect.server.protocolVersion,
        transport: 'http+sse',
      });
      return dialect;
    } catch (fallback) {
      if (isFinal(fallback)) throw fallback;
      // What the user sees is the original failure; the fallback's is listed beside it.
      const all = [...probes, `GET (HTTP+SSE): ${(fallback as Error).message}`];
      if (fallback instanceof ContentTypeError && fallback.contentType === 'application/json') {
        return otherDialects(config, events, deadline, all, fallback, early.length > 0);
      }
      return otherDialects(config, events, deadline, all, error, early.length > 0);
    }
  }
}

function listOf(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}

function legacy(
  config: NegotiationConfig,
  events: DialectEvents,
  deadline: Deadline,
  version: string,
): Promise<Dialect> {
  return probe(deadline, 'initialize', () =>
    StatefulDialect.connect({ ...config.stateful, protocolVersion: version }, events, deadline),
  );
}

/** The deprecated HTTP+SSE transport: a GET whose first event names the endpoint. */
function sse(
  config: NegotiationConfig,
  events: DialectEvents,
  deadline: Deadline,
): Promise<Dialect> {
  return probe(deadline, 'HTTP+SSE', () => SseDialect.connect(sseConfig(config), events, deadline));
}

/** One request of negotiation, as a `probe` span of the connect. */
function probe<T>(deadline: Deadline, what: string, send: () => Promise<T>): Promise<T> {
  return step(deadline, `probe ${what}`, {}, send);
}

async function remember(
  config: NegotiationConfig,
  connecting: Promise<Dialect>,
  offered: string,
): Promise<Dialect> {
  const dialect = await connecting;
  await config.verdicts.set(config.stateless.url, {
    era: 'legacy',
    version: dialect.server.protocolVersion || offered,
  });
  return dialect;
}

/** The HTTP+SSE transport offers 2024-11-05, the revision it belongs to. */
function sseConfig(config: NegotiationConfig): StatefulConfig {
  return { ...config.stateful, protocolVersion: '2024-11-05' };
}

/** Sends `server/discover` and classifies the answer. Throws only what says nothing about the era. */
function discover(config: StatelessConfig, version: string, deadline: Deadline): Promise<Probe> {
  return step(deadline, 'probe server/discover', {}, async (span) => {
    const probe = await discoverOnce(config, version, deadline);
    span.set({ 'toolwire.probe.found': probe.kind });
    return probe;
  });
}

async function discoverOnce(
  config: StatelessConfig,
  version: string,
  deadline: Deadline,
): Promise<Probe> {
  const message = request(`discover-${version}`, 'server/discover', {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientInfo': config.clientInfo,
      'io.modelcontextprotocol/clientCapabilities': config.capabilities,
    },
  });
  return withRetry(
    async (): Promise<Probe> => {
      const response = await post(
        config,
        version,
        message,
        { 'mcp-method': 'server/discover' },
        deadline.signal,
      );
      let answer: Awaited<ReturnType<typeof answerOf>>;
      try {
        // Probe traffic is the client's business: notifications on it reach nobody.
        answer = await answerOf(config, response, message, deadline, undefined, () => {});
      } catch (error) {
        if (error instanceof HttpStatusError && NOT_MODERN.has(error.status ?? 0)) {
          if (isEnvelope(error.bodyExcerpt))
            return { kind: 'webtools', summary: `HTTP ${error.status}, a Webtools envelope` };
          return notModern(`HTTP ${error.status}`, error.bodyExcerpt ?? '');
        }
        if (error instanceof ContentTypeError || error instanceof MalformedMessageError) {
          if (isEnvelope(error.bodyExcerpt))
            return { kind: 'webtools', summary: `HTTP ${response.status}, a Webtools envelope` };
          return notModern(`HTTP ${response.status} ${error.message}`, error.bodyExcerpt ?? '');
        }
        throw error;
      }
      if ('error' in answer) {
        const { code, data, message: text } = answer.error;
        // Pre-release servers numbered "unsupported version" -32004; only trust it with a version list.
        if (
          code === -32022 ||
          (code === -32004 && isObject(data) && Array.isArray(data['supported']))
        ) {
          return { kind: 'unsupported-version', data };
        }
        if (code === -32020 || code === -32021)
          return { kind: 'modern-error', error: answer.error };
        return notModern(
          `HTTP ${response.status}, JSON-RPC error ${code} "${text}"`,
          `${text} ${JSON.stringify(data ?? '')}`,
        );
      }
      if (Array.isArray(answer.result['supportedVersions']))
        return { kind: 'discovered', result: answer.result };
      return notModern(`HTTP ${response.status}, a result without supportedVersions`, '');
    },
    config.retry,
    { idempotent: true, deadline },
  );
}

/** A legacy answer may still say which revisions it speaks; those choose what `initialize` offers. */
function notModern(summary: string, text: string): Probe {
  return { kind: 'not-modern', summary, hints: text.match(DATE) ?? [] };
}

/**
 * Failures that say nothing about the server's era: the caller stopped, time ran out, or
 * authorization failed for good (no other dialect would be let in either).
 */
function isFinal(error: unknown): boolean {
  return (
    error instanceof AuthorizationError ||
    error instanceof AbortedError ||
    error instanceof TimeoutError ||
    error instanceof ClientClosedError
  );
}

function isModern(choice: ProtocolChoice): choice is (typeof MODERN_VERSIONS)[number] {
  return (MODERN_VERSIONS as readonly string[]).includes(choice);
}

function isLegacy(choice: ProtocolChoice): choice is (typeof LEGACY_VERSIONS)[number] {
  return (LEGACY_VERSIONS as readonly string[]).includes(choice);
}
