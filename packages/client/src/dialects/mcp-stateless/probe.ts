/**
 * The modern probe: `server/discover`. A modern server answers it, or refuses it with a modern
 * error code; anything else (an HTTP refusal, another JSON-RPC error, a server that exits or stays
 * silent on stdio) says the server is not modern, and what its answer names is kept as hints for
 * `initialize`. A Webtools envelope in the answer is noted for the Webtools probe.
 */
import { Deadline } from '../../core/deadline.ts';
import {
  ContentTypeError,
  HttpStatusError,
  MalformedMessageError,
  ServerExitedError,
  TimeoutError,
  UnsupportedServerError,
  UnsupportedVersionError,
} from '../../core/errors.ts';
import { isObject, type JsonObject, type JsonRpcResponse, request } from '../../core/jsonrpc.ts';
import { asIs } from '../../core/outcome.ts';
import { fromJsonRpcError, modernRpcCode, RpcCode } from '../../core/wire-codes.ts';
import { step } from '../../telemetry/span.ts';
import type { Dialect } from '../dialect.ts';
import { datesIn, type Probe, type ProbeContext } from '../probe.ts';
import type { Verdict } from '../verdicts.ts';
import { LEGACY_VERSIONS, MODERN_VERSIONS } from '../versions.ts';
import { isEnvelope } from '../webtools/envelope.ts';
import type { StatelessConfig } from './index.ts';
import { META } from './meta.ts';

/** Statuses a legacy server gives a request it does not understand. */
const NOT_MODERN = new Set([400, 404, 405, 406, 415]);

/** What one `server/discover` came to, read off the server's response. */
type DiscoverResult =
  | { kind: 'discovered'; result: JsonObject }
  | { kind: 'unsupported-version'; data: unknown }
  | { kind: 'modern-error'; error: { code: number; message: string; data?: unknown } }
  | { kind: 'not-modern'; summary: string; hints: string[] }
  /** The answer was a Webtools envelope (a POST without an action). */
  | { kind: 'webtools'; summary: string };

export const discoverProbe: Probe<StatelessConfig> = async (context, stateless) => {
  const { config, learned, misses } = context;
  const answer = await discover(context, stateless, MODERN_VERSIONS[0]);
  switch (answer.kind) {
    case 'webtools':
      if (config.dialect === 'auto') {
        learned.envelope = true;
        return undefined;
      }
      misses.push(`server/discover: ${answer.summary}`);
      return undefined;
    case 'discovered':
      return choose(context, stateless, listOf(answer.result['supportedVersions']), answer.result);
    case 'unsupported-version':
      return choose(
        context,
        stateless,
        listOf(isObject(answer.data) ? answer.data['supported'] : undefined),
        undefined,
      );
    case 'modern-error':
      // A modern server that rejects how we asked: our bug or a missing capability, never a downgrade.
      throw fromJsonRpcError(answer.error, {
        url: config.channel.label,
        method: 'server/discover',
      });
    case 'not-modern':
      misses.push(`server/discover: ${answer.summary}`);
      if (config.choice === 'modern') {
        throw new UnsupportedServerError(misses, { url: config.channel.label });
      }
      learned.hints.push(...answer.hints);
      return undefined;
  }
};

/**
 * A modern server listed the revisions it speaks: the newest modern one both sides speak, or
 * (for a dual-era server) the newest legacy one, which `initialize` then offers, or an
 * UnsupportedVersionError.
 */
async function choose(
  context: ProbeContext,
  stateless: StatelessConfig,
  supported: string[],
  discovered: JsonObject | undefined,
): Promise<Dialect | undefined> {
  const { config, events } = context;
  const modern = MODERN_VERSIONS.find((version) => supported.includes(version));
  if (modern) {
    // A version error describes nothing: ask again in the revision it allows.
    const again = discovered ? undefined : await discover(context, stateless, modern);
    const description = discovered ?? (again?.kind === 'discovered' ? again.result : undefined);
    await context.remember(modernVerdict(modern, description));
    // The dialect loads once the server is known to speak it.
    const { StatelessDialect } = await import('./index.ts');
    return new StatelessDialect(stateless, config.channel, events, modern, description);
  }
  const older = LEGACY_VERSIONS.find((version) => supported.includes(version));
  if (older && config.choice === 'auto') {
    context.learned.offer = older;
    return undefined;
  }
  throw new UnsupportedVersionError(
    supported.join(', ') || '(none)',
    [...MODERN_VERSIONS, ...LEGACY_VERSIONS],
    { url: config.channel.label, method: 'server/discover' },
  );
}

/**
 * A modern server spoken to without a probe: one whose kept `server/discover` answer is still
 * fresh, or (with no verdict) a modern revision the options pin. Else undefined: probe.
 */
export async function resumeStateless(
  context: ProbeContext,
  stateless: StatelessConfig,
  kept: Verdict | undefined,
): Promise<Dialect | undefined> {
  const { config, events } = context;
  const modern = (version: string) => (MODERN_VERSIONS as readonly string[]).includes(version);
  if (!kept) {
    if (!modern(config.choice)) return undefined;
    const { StatelessDialect } = await import('./index.ts');
    return new StatelessDialect(stateless, config.channel, events, config.choice, undefined);
  }
  const fresh = kept.freshUntil !== undefined && Date.parse(kept.freshUntil) > Date.now();
  if (!fresh || !kept.discovered || !modern(kept.version)) return undefined;
  const { StatelessDialect } = await import('./index.ts');
  return new StatelessDialect(stateless, config.channel, events, kept.version, kept.discovered);
}

/** The verdict for a modern server: its discover answer kept as long as the server allows. */
function modernVerdict(version: string, discovered: JsonObject | undefined): Verdict {
  const ttlMs = discovered?.['ttlMs'];
  if (discovered?.['cacheScope'] !== 'public' || typeof ttlMs !== 'number' || !(ttlMs > 0)) {
    return { dialect: 'mcp-stateless', version };
  }
  const freshUntil = new Date(Date.now() + ttlMs).toISOString();
  return { dialect: 'mcp-stateless', version, discovered, freshUntil };
}

/** Sends `server/discover` and classifies the answer, as a `probe` span of the connect. */
function discover(
  context: ProbeContext,
  stateless: StatelessConfig,
  version: string,
): Promise<DiscoverResult> {
  return step(context.deadline, 'probe server/discover', {}, async (span) => {
    const answer = await discoverOnce(context, stateless, version);
    span.set({ 'toolwire.probe.found': answer.kind });
    return answer;
  });
}

/** Sends `server/discover` and classifies the answer. Throws only what says nothing about the era. */
async function discoverOnce(
  context: ProbeContext,
  stateless: StatelessConfig,
  version: string,
): Promise<DiscoverResult> {
  const { config } = context;
  const { silenceMs } = config;
  const message = request(`discover-${version}`, 'server/discover', {
    _meta: {
      [META.version]: version,
      [META.clientInfo]: stateless.clientInfo,
      [META.capabilities]: stateless.capabilities,
    },
  });
  // On stdio, silence is an answer: a legacy server may ignore what it does not know.
  using silence =
    silenceMs === undefined
      ? undefined
      : new Deadline({
          timeoutMs: silenceMs,
          maxTimeoutMs: silenceMs,
          signal: context.deadline.signal,
          context: { url: config.channel.label, method: 'server/discover' },
        });
  const deadline = silence ?? context.deadline;
  let response: JsonRpcResponse;
  try {
    response = await config.channel.request(
      message,
      {
        deadline,
        idempotent: true,
        probe: true,
        version,
        mirror: { 'mcp-method': 'server/discover' },
        // Probe traffic is the client's business: notifications on it reach nobody.
        onMessage: () => {},
      },
      asIs,
    );
  } catch (error) {
    if (context.deadline.aborted) throw context.deadline.reason;
    return refusal(error, silenceMs);
  }
  if ('error' in response) {
    const { code, data, message: text } = response.error;
    // Pre-release servers numbered "unsupported version" -32004; only trust it with a version list.
    if (
      code === RpcCode.unsupportedVersion ||
      (code === RpcCode.draftUnsupportedVersion &&
        isObject(data) &&
        Array.isArray(data['supported']))
    ) {
      return { kind: 'unsupported-version', data };
    }
    if (modernRpcCode(code)) return { kind: 'modern-error', error: response.error };
    return notModern(`JSON-RPC error ${code} "${text}"`, `${text} ${JSON.stringify(data ?? '')}`);
  }
  if (Array.isArray(response.result['supportedVersions']))
    return { kind: 'discovered', result: response.result };
  return notModern('a result without supportedVersions', '');
}

/** A failed probe that still says something about the era; anything else is thrown. */
function refusal(error: unknown, silenceMs: number | undefined): DiscoverResult {
  if (error instanceof HttpStatusError && NOT_MODERN.has(error.status ?? 0)) {
    if (isEnvelope(error.bodyExcerpt))
      return { kind: 'webtools', summary: `HTTP ${error.status}, a Webtools envelope` };
    return notModern(`HTTP ${error.status}`, error.bodyExcerpt ?? '');
  }
  if (error instanceof ContentTypeError || error instanceof MalformedMessageError) {
    const status = `HTTP ${error.status ?? 200}`;
    if (isEnvelope(error.bodyExcerpt))
      return { kind: 'webtools', summary: `${status}, a Webtools envelope` };
    return notModern(`${status} ${error.message}`, error.bodyExcerpt ?? '');
  }
  // Some servers exit on a request they do not know; the next request starts them again.
  if (error instanceof ServerExitedError) return notModern(error.message, error.stderr.join(' '));
  if (error instanceof TimeoutError && silenceMs !== undefined) {
    return notModern(`no answer within ${silenceMs} ms`, '');
  }
  throw error;
}

/** A legacy answer may still say which revisions it speaks: `initialize` then offers the best. */
function notModern(summary: string, text: string): DiscoverResult {
  return { kind: 'not-modern', summary, hints: datesIn(text) };
}

function listOf(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}
