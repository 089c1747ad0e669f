/**
 * From resolved options to a connected dialect: the channel, the configuration each dialect
 * needs, and the probes to run, handed to negotiation. The one place that knows which option
 * feeds which dialect.
 */
import type { Dispatcher } from 'undici';
import { StreamableHttpChannel } from './channels/streamable-http.ts';
import type { Deadline } from './deadline.ts';
import type { Dialect, DialectEvents } from './dialects/dialect.ts';
import { StatefulDialect } from './dialects/mcp-stateful/index.ts';
import { withTasksExtension } from './dialects/mcp-stateless/tasks.ts';
import { guardedVerdicts } from './guarded-verdicts.ts';
import { clientCapabilities } from './handlers/capabilities.ts';
import type { Responder } from './handlers/responder.ts';
import type { JsonObject } from './jsonrpc.ts';
import {
  HTTP_PROBES,
  LEGACY_VERSIONS,
  MODERN_VERSIONS,
  negotiate,
  sharedVerdicts,
} from './negotiate/index.ts';
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
  const http = {
    url: options.url,
    dispatcher,
    headers: options.headers,
    maxResponseBytes: options.maxResponseBytes,
    retry: options.retry,
  };
  const channel = new StreamableHttpChannel({
    ...http,
    maxEventSize: options.maxEventSize,
    reconnectAttempts: options.reconnectAttempts,
  });
  const clientInfo = { ...options.clientInfo };
  // What the client can answer follows from the handlers the application registered; the
  // extensions are what the application says it supports.
  const capabilities = withExtensions(clientCapabilities(options.handlers), options.extensions);
  const stateful = {
    ...http,
    clientInfo,
    capabilities,
    maxEventSize: options.maxEventSize,
    listen: options.listen,
    reconnectAttempts: options.reconnectAttempts,
    supportedVersions: LEGACY_VERSIONS,
    timeoutMs: options.timeoutMs,
    maxTimeoutMs: options.maxTimeoutMs,
    responder,
  };
  return negotiate(
    {
      choice: options.protocolVersion,
      dialect: options.dialect,
      verdicts: guardedVerdicts(options.verdicts, sharedVerdicts, events.warning),
      key: options.url,
      channel,
      probes: HTTP_PROBES,
      stateless: {
        clientInfo,
        // The client redeems tasks itself (or hands back their handles): it can take one.
        capabilities: withTasksExtension(capabilities),
        versions: MODERN_VERSIONS,
        listen: options.listen,
        timeoutMs: options.timeoutMs,
      },
      legacy: (protocolVersion, dialectEvents, within) =>
        StatefulDialect.connect({ ...stateful, protocolVersion }, dialectEvents, within),
      // The HTTP+SSE transport offers 2024-11-05, the revision it belongs to.
      sse: { ...stateful, protocolVersion: '2024-11-05' },
      lite: {
        ...http,
        maxEventSize: options.maxEventSize,
        resetTimeoutOnProgress: options.resetTimeoutOnProgress,
      },
      webtools: { ...http, options: options.webtools },
    },
    events,
    deadline,
  );
}
