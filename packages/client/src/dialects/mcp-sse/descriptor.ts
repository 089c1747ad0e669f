/**
 * The deprecated HTTP+SSE transport (2024-11-05): tried after `initialize` was refused the way
 * the transport spec says calls for it, or named by the options.
 */
import { defineDialect } from '../descriptor.ts';
import { type Shared, sessionSettings } from '../shared.ts';
import { LEGACY_VERSIONS } from '../versions.ts';
import type { SseConfig } from './index.ts';

const probes = () => import('./probe.ts');

export const descriptor = defineDialect({
  name: 'mcp-sse',
  era: 'legacy',
  runsOn: ['http'],
  protocols: ['auto'],
  // Right after `initialize`, whose refusal it follows.
  probes: [
    {
      on: 'http',
      rank: 40,
      run: async (context, config) => (await probes()).httpSseProbe(context, config),
    },
  ],
  resume: async (context, config) => (await probes()).resumeSse(context, config),
  configure: (shared: Shared): SseConfig => ({
    ...sessionSettings(shared.options, shared.dispatcher),
    clientInfo: shared.clientInfo,
    capabilities: shared.capabilities,
    supportedVersions: LEGACY_VERSIONS,
    listen: shared.options.listen,
    ask: shared.ask,
    // The HTTP+SSE transport offers 2024-11-05, the revision it belongs to.
    protocolVersion: '2024-11-05',
  }),
});
