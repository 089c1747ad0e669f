/**
 * MCP's session revisions (2025-11-25 back to 2024-11-05) on the client's channel: over HTTP a
 * Streamable HTTP channel that keeps a session, made for each attempt to open one; over stdio the
 * process's own pipe.
 */
import type { Deadline } from '../../core/deadline.ts';
import type { ChannelEvents } from '../../wire/channels/channel.ts';
import { defineDialect } from '../descriptor.ts';
import type { Dialect } from '../dialect.ts';
import { type Shared, sessionSettings } from '../shared.ts';
import { LEGACY_VERSIONS } from '../versions.ts';

/** Opens the legacy era, offering `version` in `initialize`. */
export type OpenLegacy = (
  version: string,
  events: ChannelEvents,
  deadline: Deadline,
) => Promise<Dialect>;

const probes = () => import('./probe.ts');

export const descriptor = defineDialect({
  name: 'mcp-stateful',
  era: 'legacy',
  runsOn: ['http', 'stdio'],
  protocols: ['auto', 'legacy', ...LEGACY_VERSIONS],
  // After `server/discover`: what a server that is not modern may still be.
  probes: [
    {
      on: 'http',
      rank: 30,
      run: async (context, open) => (await probes()).initializeProbe(context, open),
    },
    {
      on: 'stdio',
      rank: 20,
      run: async (context, open) => (await probes()).initializeProbe(context, open),
    },
  ],
  resume: async (context, open, kept) => (await probes()).resumeStateful(context, open, kept),
  configure: (shared: Shared): OpenLegacy => {
    const { options } = shared;
    const config = {
      clientInfo: shared.clientInfo,
      capabilities: shared.capabilities,
      supportedVersions: LEGACY_VERSIONS,
      listen: options.listen,
      timeoutMs: options.timeoutMs,
      maxTimeoutMs: options.maxTimeoutMs,
      ask: shared.ask,
    };
    return async (protocolVersion, events, deadline) => {
      const offer = { ...config, protocolVersion };
      // The process keeps the session over stdio; over HTTP a channel of its own keeps it.
      if (shared.on === 'stdio') {
        const { StatefulDialect } = await import('./index.ts');
        return StatefulDialect.connect(offer, shared.channel, events, deadline);
      }
      const [{ StatefulDialect }, { StreamableHttpSessionChannel }] = await Promise.all([
        import('./index.ts'),
        import('../../wire/channels/http-session/index.ts'),
      ]);
      const channel = new StreamableHttpSessionChannel(sessionSettings(options, shared.dispatcher));
      return StatefulDialect.connect(offer, channel, events, deadline);
    };
  },
});
