/**
 * What importing `@toolwire/client` loads, in a fresh process, as a user's program does: the
 * public face and what a client needs before its first connection, and nothing of undici, the
 * dialects, the channels, OAuth or OpenTelemetry (the dialects' light vocabulary loads with the
 * options: their versions and verdict types, and the registry of their descriptors, which import
 * nothing of a dialect until it is spoken to). Those load with the first connection, and a
 * dialect only for a server that speaks it. Counted by a module-loading hook, not timed.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const run = promisify(execFile);

/** Lists every module the import of `specifier` loads, one URL per line. */
const LIST = `
import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
await import(process.argv[1]);
process.stdout.write(loaded.join('\\n'));
`;

async function loadedBy(specifier: string): Promise<string[]> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', LIST, specifier], {
    cwd: import.meta.dirname,
  });
  return stdout.split('\n');
}

test('importing the client loads no undici, no dialect, no channel, no OAuth, no OpenTelemetry, no discovery', async () => {
  const loaded = await loadedBy('@toolwire/client');
  const own = loaded.filter((url) => url.includes('/client/dist/'));
  expect(own.length).toBeGreaterThan(10);
  const deferred = loaded.filter((url) =>
    /\/node_modules\/(undici|@opentelemetry|oauth4webapi|eventsource-parser)\/|\/client\/dist\/(dialects\/(?!mcp-lite\/grpc\/url|verdicts|versions|registry|registered|descriptor|shared|[\w-]+\/descriptor\.)|wire\/channels\/|negotiate\/|client\/connection|auth\/(oauth|grants|registration|discovery)|discovery\/(?!entry\.)|wire\/transport\/(sse|stdio\/(?!environment)))/.test(
      url,
    ),
  );
  expect(deferred).toEqual([]);
  // The tokenizers are optional peers, loaded by the first count only.
  const tokenizers = loaded.filter((url) =>
    /\/node_modules\/(js-tiktoken|tiktoken|@anthropic-ai\/tokenizer)\//.test(url),
  );
  expect(tokenizers).toEqual([]);
});
