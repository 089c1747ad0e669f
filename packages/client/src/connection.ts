/**
 * From resolved options to a connected dialect: the configuration each dialect needs, handed to
 * negotiation. The one place that knows which option feeds which dialect.
 */
import type { Dispatcher } from 'undici';
import type { Deadline } from './deadline.ts';
import type { Dialect, DialectEvents } from './dialects/dialect.ts';
import { withTasksExtension } from './dialects/mcp-stateless/tasks.ts';
import { guardedVerdicts } from './guarded-verdicts.ts';
import { clientCapabilities } from './handlers/capabilities.ts';
import type { Responder } from './handlers/responder.ts';
import type { JsonObject } from './jsonrpc.ts';
import { LEGACY_VERSIONS, MODERN_VERSIONS, negotiate, sharedVerdicts } from './negotiate.ts';
import type { ResolvedOptions } from './options.ts';

function withExtensions(capabilities: JsonObject, extensions: JsonObject): JsonObject {
  return Object.keys(extensions).length === 0 ? capabilities : { ...capabilities, extensions };
}

export function openDialect(
  options: ResolvedOptions,
  dispatcher: Dispatcher,
  events: DialectEvents,
  deadline: Deadline,
  responder: Responder,
): Promise<Dialect> {
  const shared = {
    url: options.url,
    dispatcher,
    headers: options.headers,
    clientInfo: { ...options.clientInfo },
    // What the client can answer follows from the handlers the application registered; the
    // extensions are what the application says it supports.
    capabilities: withExtensions(clientCapabilities(options.handlers), options.extensions),
    maxResponseBytes: options.maxResponseBytes,
    maxEventSize: options.maxEventSize,
    retry: options.retry,
    listen: options.listen,
    reconnectAttempts: options.reconnectAttempts,
  };
  const http = {
    url: options.url,
    dispatcher,
    headers: options.headers,
    maxResponseBytes: options.maxResponseBytes,
    retry: options.retry,
  };
  return negotiate(
    {
      choice: options.protocolVersion,
      dialect: options.dialect,
      lite: {
        ...http,
        maxEventSize: options.maxEventSize,
        resetTimeoutOnProgress: options.resetTimeoutOnProgress,
      },
      webtools: { ...http, options: options.webtools },
      verdicts: guardedVerdicts(options.verdicts, sharedVerdicts, events.warning),
      stateless: {
        ...shared,
        // The client redeems tasks itself (or hands back their handles): it can take one.
        capabilities: withTasksExtension(shared.capabilities),
        versions: MODERN_VERSIONS,
        timeoutMs: options.timeoutMs,
      },
      stateful: {
        ...shared,
        supportedVersions: LEGACY_VERSIONS,
        timeoutMs: options.timeoutMs,
        maxTimeoutMs: options.maxTimeoutMs,
        responder,
      },
    },
    events,
    deadline,
  );
}
