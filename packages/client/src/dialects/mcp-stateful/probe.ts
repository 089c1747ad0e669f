/**
 * The legacy probe: `initialize`, offering the best revision earlier answers named. Over
 * Streamable HTTP a refusal that says nothing modern (an HTTP error, something that is not MCP)
 * is a miss, and a 400, 404 or 405 is the transport spec's cue to try the HTTP+SSE transport.
 */
import {
  ContentTypeError,
  HttpStatusError,
  JsonRpcError,
  MalformedMessageError,
} from '../../core/errors.ts';
import { modernRpcCode } from '../../core/wire-codes.ts';
import type { Dialect } from '../dialect.ts';
import { isFinal, type Probe, type ProbeContext, probeStep } from '../probe.ts';
import type { Verdict } from '../verdicts.ts';
import { LEGACY_VERSIONS } from '../versions.ts';
import type { OpenLegacy } from './descriptor.ts';

const FALL_BACK_TO_SSE = new Set([400, 404, 405]);

export const initializeProbe: Probe<OpenLegacy> = async (context, open) => {
  const { learned, misses } = context;
  // The modern probe was answered by a Webtools envelope: not MCP at all.
  if (learned.envelope) return undefined;
  const offered =
    learned.offer ??
    LEGACY_VERSIONS.find((version) => learned.hints.includes(version)) ??
    LEGACY_VERSIONS[0];
  try {
    const dialect = await probeStep(context.deadline, 'initialize', () =>
      open(offered, context.events, context.deadline),
    );
    await context.remember({
      dialect: 'mcp-stateful',
      version: dialect.server.protocolVersion || offered,
    });
    return dialect;
  } catch (error) {
    // A server that listed this revision as its own has no other transport to fall back to.
    if (learned.offer !== undefined || isFinal(error)) throw error;
    // A refusal says nothing modern: an HTTP error, something that is not MCP, or a JSON-RPC error
    // other than the modern codes riding on an error status.
    const rpcRefusal =
      error instanceof JsonRpcError &&
      (error.status ?? 200) >= 400 &&
      !modernRpcCode(error.rpcCode);
    const refused =
      rpcRefusal ||
      error instanceof HttpStatusError ||
      error instanceof ContentTypeError ||
      error instanceof MalformedMessageError;
    if (!refused) throw error;
    misses.push(`initialize: ${error.message}`);
    learned.refused = true;
    learned.cause = error;
    learned.sseFallback =
      (error instanceof HttpStatusError || rpcRefusal) && FALL_BACK_TO_SSE.has(error.status ?? 0);
    return undefined;
  }
};

/**
 * The legacy era with no probe: at the revision a kept verdict names, else the one the options
 * pin, else the newest.
 */
export function resumeStateful(
  context: ProbeContext,
  open: OpenLegacy,
  kept: Verdict | undefined,
): Promise<Dialect> {
  const { choice } = context.config;
  const pinned = (LEGACY_VERSIONS as readonly string[]).includes(choice) ? choice : undefined;
  const version = kept?.version ?? pinned ?? LEGACY_VERSIONS[0];
  return open(version, context.events, context.deadline);
}
