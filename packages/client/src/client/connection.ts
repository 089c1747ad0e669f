/**
 * From resolved options to a connected dialect: the channel, what the client shares with the
 * dialects (each builds its own configuration from it, `dialects/registry.ts`), handed to
 * negotiation.
 */
import type { Dispatcher } from 'undici';
import type { Deadline } from '../core/deadline.ts';
import type { JsonObject } from '../core/jsonrpc.ts';
import type { Ask, Dialect } from '../dialects/dialect.ts';
import { mediumOf } from '../dialects/registered.ts';
import { streamSettings } from '../dialects/shared.ts';
import { clientCapabilities } from '../handlers/capabilities.ts';
import { negotiate } from '../negotiate/index.ts';
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
  const negotiated = negotiate(
    {
      choice: options.protocolVersion,
      dialect: options.dialect,
      verdicts: guardedVerdicts(options.verdicts, options.ownVerdicts, events.warning),
      key: options.url,
      on: mediumOf(options.url),
      channel: new StreamableHttpChannel(streamSettings(options, dispatcher)),
      options,
      dispatcher,
      clientInfo: { ...options.clientInfo },
      // What the client can answer follows from the handlers the application registered; the
      // extensions are what the application says it supports.
      capabilities: withExtensions(clientCapabilities(options.handlers), options.extensions),
      ask,
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
  try {
    return await negotiate(
      {
        choice: options.protocolVersion,
        dialect: options.dialect,
        verdicts: guardedVerdicts(options.verdicts, options.ownVerdicts, events.warning),
        key: stdio.key,
        on: 'stdio',
        channel,
        silenceMs: options.connectTimeoutMs,
        options,
        clientInfo: { ...options.clientInfo },
        // The same declaration as over HTTP: a local server is told of skills and apps too.
        capabilities: withExtensions(clientCapabilities(options.handlers), options.extensions),
        ask,
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
