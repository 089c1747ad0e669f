/**
 * OpenTelemetry is an optional peer: an application without it imports the client and calls
 * tools as before. The client looks for the API only when something registered with
 * OpenTelemetry in the process, once, on the first operation (never at import); with nothing
 * registered, or with `tracing: false`, it never looks.
 */
import { startReferenceServer } from '@toolwire/reference-server';
import { expect, test } from 'vitest';
import { startWorker } from '../helpers/worker-process.ts';

const HIDE = new URL('./hide-otel.ts', import.meta.url).href;
const WORKER = new URL('./without-otel.ts', import.meta.url);

test.each([
  ['registered', 1],
  ['on', 0],
  ['off', 0],
])(
  'without @opentelemetry/api, tracing %s: calls work, looked for %i time(s)',
  async (tracing, looked) => {
    await using server = await startReferenceServer();
    await using worker = startWorker(WORKER, [server.url, tracing], {}, ['--import', HIDE]);
    const code = await worker.exited;
    expect(code, worker.stderr()).toBe(0);
    expect(worker.events).toEqual([
      {
        afterImport: 0,
        afterCalls: looked,
        warnings: [],
        content: [{ type: 'text', text: 'untraced' }],
      },
    ]);
  },
);
