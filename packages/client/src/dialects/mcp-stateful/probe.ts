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
import { isFinal, type Probe, probeStep } from '../probe.ts';
import { LEGACY_VERSIONS } from '../versions.ts';

const FALL_BACK_TO_SSE = new Set([400, 404, 405]);

export const initializeProbe: Probe = async (context) => {
  const { config, learned, misses } = context;
  // The modern probe was answered by a Webtools envelope: not MCP at all.
  if (learned.envelope) return undefined;
  const offered =
    learned.offer ??
    LEGACY_VERSIONS.find((version) => learned.hints.includes(version)) ??
    LEGACY_VERSIONS[0];
  try {
    const dialect = await probeStep(context.deadline, 'initialize', () =>
      config.legacy(offered, context.events, context.deadline),
    );
    await context.remember({ era: 'legacy', version: dialect.server.protocolVersion || offered });
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
