/**
 * From resolved options to a connected dialect: the channel, the configuration each dialect
 * needs, and the probes to run, handed to negotiation. The one place that knows which option
 * feeds which dialect.
 */
import type { Dispatcher } from 'undici';
import type { Deadline } from '../core/deadline.ts';
import type { JsonObject } from '../core/jsonrpc.ts';
import type { Ask, Dialect } from '../dialects/dialect.ts';
import { withTasksExtension } from '../dialects/mcp-stateless/tasks.ts';
import { clientCapabilities } from '../handlers/capabilities.ts';
import {
  HTTP_PROBES,
  LEGACY_VERSIONS,
  MODERN_VERSIONS,
  negotiate,
  STDIO_PROBES,
} from '../negotiate/index.ts';
import type { ChannelEvents } from '../wire/channels/channel.ts';
import { StreamableHttpChannel } from '../wire/channels/streamable-http.ts';
import { credentialsRequired } from './credentials-required.ts';
import { guardedVerdicts } from './guarded-verdicts.ts';
import type { ResolvedOptions } from './options.ts';

function withExtensions(capabilities: JsonObject, extensions: JsonObject): JsonObject {
  return Object.keys(extensions).length === 0 ? capabilities : { ...capabilities, extensions };
}

export function openDialect(
  options: ResolvedOptions,
  dispatcher: Dispatcher | undefined,
  events: ChannelEvents,
  deadline: Deadline,
  ask: Ask,
): Promise<Dialect> {
  if (options.stdio || !dispatcher) return openStdio(options, events, deadline, ask);
  const http = {
    url: options.url,
    dispatcher,
    headers: options.headers,
    maxResponseBytes: options.maxResponseBytes,
    retry: options.retry,
  };
  const streams = {
    ...http,
    maxEventSize: options.maxEventSize,
    reconnectAttempts: options.reconnectAttempts,
  };
  const channel = new StreamableHttpChannel(streams);
  const clientInfo = { ...options.clientInfo };
  // What the client can answer follows from the handlers the application registered; the
  // extensions are what the application says it supports.
  const capabilities = withExtensions(clientCapabilities(options.handlers), options.extensions);
  const legacy = {
    clientInfo,
    capabilities,
    listen: options.listen,
    supportedVersions: LEGACY_VERSIONS,
    timeoutMs: options.timeoutMs,
    maxTimeoutMs: options.maxTimeoutMs,
    ask,
  };
  // The legacy era keeps a session: a channel of its own, made for each attempt to open one.
  const session = { ...streams, timeoutMs: options.timeoutMs, maxTimeoutMs: options.maxTimeoutMs };
  const negotiated = negotiate(
    {
      choice: options.protocolVersion,
      dialect: options.dialect,
      verdicts: guardedVerdicts(options.verdicts, options.ownVerdicts, events.warning),
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
      legacy: async (protocolVersion, dialectEvents, within) => {
        const [{ StatefulDialect }, { StreamableHttpSessionChannel }] = await Promise.all([
          import('../dialects/mcp-stateful/index.ts'),
          import('../wire/channels/http-session/index.ts'),
        ]);
        return StatefulDialect.connect(
          { ...legacy, protocolVersion },
          new StreamableHttpSessionChannel(session),
          dialectEvents,
          within,
        );
      },
      // The HTTP+SSE transport offers 2024-11-05, the revision it belongs to.
      sse: { ...session, ...legacy, protocolVersion: '2024-11-05' },
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
  return negotiated.catch((error: unknown) => {
    throw credentialsRequired(error, options);
  });
}

/** How long `close()` waits for a local server to exit, after ending stdin and after SIGTERM. */
const STDIO_GRACE_MS = 2_000;

/** A local server: the stdio channel (loaded only here, so HTTP users never load it). */
async function openStdio(
  options: ResolvedOptions,
  events: ChannelEvents,
  deadline: Deadline,
  ask: Ask,
): Promise<Dialect> {
  const stdio = options.stdio!;
  const { StdioChannel } = await import('../wire/channels/stdio.ts');
  const channel = new StdioChannel(
    {
      command: stdio.command,
      label: stdio.label,
      maxResponseBytes: options.maxResponseBytes,
      retry: options.retry,
      graceMs: STDIO_GRACE_MS,
    },
    events,
  );
  const clientInfo = { ...options.clientInfo };
  const capabilities = clientCapabilities(options.handlers);
  try {
    return await negotiate(
      {
        choice: options.protocolVersion,
        dialect: options.dialect,
        verdicts: guardedVerdicts(options.verdicts, options.ownVerdicts, events.warning),
        key: stdio.key,
        channel,
        probes: STDIO_PROBES,
        silenceMs: options.connectTimeoutMs,
        stateless: {
          clientInfo,
          capabilities: withTasksExtension(capabilities),
          versions: MODERN_VERSIONS,
          listen: options.listen,
          timeoutMs: options.timeoutMs,
        },
        legacy: async (protocolVersion, dialectEvents, within) => {
          const { StatefulDialect } = await import('../dialects/mcp-stateful/index.ts');
          return StatefulDialect.connect(
            {
              clientInfo,
              capabilities,
              protocolVersion,
              supportedVersions: LEGACY_VERSIONS,
              listen: options.listen,
              timeoutMs: options.timeoutMs,
              maxTimeoutMs: options.maxTimeoutMs,
              ask,
            },
            channel,
            dialectEvents,
            within,
          );
        },
      },
      events,
      deadline,
    );
  } catch (error) {
    // Nothing speaks to the process now: it must not outlive the failed connection.
    await channel.close();
    throw error;
  }
}
