/**
 * Webtools (seed 004): found by its metadata GET once the modern probe met a Webtools envelope,
 * or MCP found JSON where it has none. Its `webtools` option is checked here.
 */
import { usageError } from '../../core/call-boundary.ts';
import { defineDialect } from '../descriptor.ts';
import { httpSettings, type Shared } from '../shared.ts';
import type { WebtoolsConfig } from './index.ts';

const probes = () => import('./probe.ts');

export const descriptor = defineDialect({
  name: 'webtools',
  era: undefined,
  runsOn: ['http'],
  protocols: ['auto'],
  // After MCP's probes, whose answers say whether a webtool may be there.
  probes: [
    {
      on: 'http',
      rank: 50,
      run: async (context, webtools) => (await probes()).webtoolsProbe(context, webtools),
    },
  ],
  resume: async (context, webtools) => (await probes()).resumeWebtools(context, webtools),
  configure: (shared: Shared): WebtoolsConfig => ({
    ...httpSettings(shared.options, shared.dispatcher),
    options: shared.options.webtools,
  }),
  checkOptions(options, on) {
    const { onChange, version, sessionId, metadata, config } = options.webtools;
    if (on !== 'http' && Object.keys(options.webtools).length > 0) {
      throw usageError(`\`webtools\` applies to HTTP servers; this one is reached over ${on}`);
    }
    if (onChange !== undefined && onChange !== 'refuse' && onChange !== 'report') {
      throw usageError(
        `expected \`webtools.onChange\` to be 'refuse' or 'report', got "${String(onChange)}"`,
      );
    }
    for (const [name, value] of [
      ['webtools.version', version],
      ['webtools.sessionId', sessionId],
    ] as const) {
      if (value !== undefined && (typeof value !== 'string' || value === '')) {
        throw usageError(`expected \`${name}\` to be a non-empty string, got ${String(value)}`);
      }
    }
    if (metadata !== undefined && !Array.isArray((metadata as { actions?: unknown }).actions)) {
      throw usageError(
        'expected `webtools.metadata` to be webtool metadata, with an `actions` array',
      );
    }
    if (
      config !== undefined &&
      (typeof config !== 'object' || config === null || Array.isArray(config))
    ) {
      throw usageError('expected `webtools.config` to be an object');
    }
  },
});
