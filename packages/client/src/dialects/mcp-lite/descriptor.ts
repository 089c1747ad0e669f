/**
 * MCP-lite (seed 000): its HTTP binding, found by its listing (first when the URL names it, else
 * once MCP refused), and its gRPC binding, which a grpc:// or grpcs:// URL names outright.
 */
import { usageError } from '../../core/call-boundary.ts';
import { defineDialect } from '../descriptor.ts';
import { httpSettings, type Shared } from '../shared.ts';
import type { McpLiteConfig } from './binding.ts';

const probes = () => import('./probe.ts');

export const descriptor = defineDialect({
  name: 'mcp-lite',
  era: undefined,
  runsOn: ['http', 'grpc'],
  protocols: ['auto'],
  probes: [
    // A URL ending in /listtools, /calltools, /tools or /rpc: before MCP is asked.
    {
      on: 'http',
      rank: 10,
      run: async (context, lite) => (await probes()).hintedLiteProbe(context, lite),
    },
    // Else last, once MCP refused in a way that says nothing modern.
    {
      on: 'http',
      rank: 60,
      run: async (context, lite) => (await probes()).liteProbe(context, lite),
    },
  ],
  resume: async (context, lite) => (await probes()).resumeLite(context, lite),
  configure: (shared: Shared): McpLiteConfig => ({
    ...httpSettings(shared.options, shared.dispatcher),
    maxEventSize: shared.options.maxEventSize,
    resetTimeoutOnProgress: shared.options.resetTimeoutOnProgress,
  }),
  checkOptions(options, on) {
    // OAuth discovers its servers from the resource's HTTP URLs; a gRPC resource has none.
    const { auth } = options;
    if (
      on === 'grpc' &&
      typeof auth === 'object' &&
      typeof (auth as { headers?: unknown }).headers !== 'function'
    ) {
      throw usageError(
        'a grpc URL takes `auth` as a token, a token function or a provider, not OAuth options',
      );
    }
  },
});
