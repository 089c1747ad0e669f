import { defineConfig } from 'vitest/config';

// Unit tests next to the sources run on TypeScript: the `@toolwire/source` export condition points
// each workspace package at src/index.ts, so no build stands between an edit and a unit test.
const sources = ['@toolwire/source', 'node', 'import', 'default'];
const onSources = {
  resolve: { conditions: sources },
  ssr: { resolve: { conditions: sources, externalConditions: ['@toolwire/source'] } },
};

// Tests that cross packages (test/) load what users install: the built JavaScript, through each
// package's `exports` map, with no source condition. `npm test` builds first.
const installed = ['node', 'import', 'default'];
const asInstalled = {
  resolve: { conditions: installed },
  ssr: { resolve: { conditions: installed, externalConditions: [] } },
};

export default defineConfig({
  test: {
    // Loopback servers and real sockets: keep a generous per-test deadline, never a time assertion.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two test files at a time even on two cores (vitest's default there is one): most of a test's
    // time is spent waiting on servers in other processes, so the suite takes about a third less.
    maxWorkers: 2,
    // The last line names the tests skipped for a missing system service (test/helpers/services.ts).
    reporters: ['default', './test/helpers/missing-services-reporter.ts'],
    projects: [
      {
        extends: true,
        ...onSources,
        test: { name: 'client', include: ['packages/client/src/**/*.test.ts'] },
      },
      {
        extends: true,
        ...onSources,
        test: { name: 'reference-server', include: ['packages/reference-server/src/**/*.test.ts'] },
      },
      {
        extends: true,
        ...onSources,
        test: { name: 'adapter-ai-sdk', include: ['packages/adapter-ai-sdk/src/**/*.test.ts'] },
      },
      {
        extends: true,
        ...onSources,
        test: {
          name: 'adapter-langchain',
          include: ['packages/adapter-langchain/src/**/*.test.ts'],
        },
      },
      {
        extends: true,
        ...onSources,
        test: { name: 'redis', include: ['packages/redis/src/**/*.test.ts'] },
      },
      {
        extends: true,
        ...onSources,
        test: { name: 'cli', include: ['packages/cli/src/**/*.test.ts'] },
      },
      {
        extends: true,
        ...asInstalled,
        test: { name: 'integration', include: ['test/**/*.test.ts'] },
      },
    ],
  },
});
