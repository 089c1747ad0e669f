/** MCP 2026-07-28, the modern era: no session, over whatever channel the client has. */
import { defineDialect } from '../descriptor.ts';
import type { Shared } from '../shared.ts';
import { MODERN_VERSIONS } from '../versions.ts';
import type { StatelessConfig } from './index.ts';

const probes = () => import('./probe.ts');

export const descriptor = defineDialect({
  name: 'mcp-stateless',
  era: 'modern',
  runsOn: ['http', 'stdio'],
  protocols: ['auto', 'modern', ...MODERN_VERSIONS],
  // A modern server costs one request before the first call: asked first of any MCP server.
  probes: [
    {
      on: 'http',
      rank: 20,
      run: async (context, config) => (await probes()).discoverProbe(context, config),
    },
    {
      on: 'stdio',
      rank: 10,
      run: async (context, config) => (await probes()).discoverProbe(context, config),
    },
  ],
  resume: async (context, config, kept) => (await probes()).resumeStateless(context, config, kept),
  configure: async (shared: Shared): Promise<StatelessConfig> => {
    const { withTasksExtension } = await import('./tasks.ts');
    return {
      clientInfo: shared.clientInfo,
      // The client redeems tasks itself (or hands back their handles): it can take one.
      capabilities: withTasksExtension(shared.capabilities),
      versions: MODERN_VERSIONS,
      listen: shared.options.listen,
      timeoutMs: shared.options.timeoutMs,
    };
  },
});
