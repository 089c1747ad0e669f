import { defineConfig } from 'vitest/config';

// Tests run on the TypeScript sources: the `@toolwire/source` export condition points each workspace
// package at src/index.ts, so no build step stands between an edit and a test run.
const conditions = ['@toolwire/source', 'node', 'import', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@toolwire/source'] } },
  test: {
    // Loopback servers and real sockets: keep a generous per-test deadline, never a time assertion.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      { extends: true, test: { name: 'client', include: ['packages/client/src/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'reference-server', include: ['packages/reference-server/src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'adapter-ai-sdk', include: ['packages/adapter-ai-sdk/src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'adapter-langchain',
          include: ['packages/adapter-langchain/src/**/*.test.ts'],
        },
      },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'] } },
    ],
  },
});
