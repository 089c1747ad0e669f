/**
 * Every TypeScript snippet in the READMEs runs as printed against the bundled reference server
 * (and a real Redis, for the snippets of the shared stores: `REDIS_URL`, `TOOLWIRE_KEY`; without
 * one those snippets alone are skipped), and type-checks against the built packages, so a snippet
 * cannot drift from the API again.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { glob, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { neededBy, type Redis, service } from '../helpers/services.ts';
import { programOf, snippetsOf } from './snippets.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUN = fileURLToPath(new URL('./.run/', import.meta.url));

const files: string[] = [];
for await (const file of glob(['README.md', 'packages/*/README.md', 'docs/*.md'], { cwd: ROOT })) {
  files.push(file);
}
const snippets = await snippetsOf(ROOT, files.sort());
const runnable = snippets.filter((snippet) => snippet.outline === undefined);

let server: ReferenceServer;
const available = service('redis');
let redis: Redis | undefined;
/** The key the Redis snippets seal secrets with. */
const key = randomBytes(32).toString('hex');

/** The file a snippet runs from: inside the repository, so packages resolve as a user's would. */
function fileOf(where: string): string {
  return join(RUN, `${where.replace(/[^\w]+/g, '_')}.ts`);
}

beforeAll(async () => {
  server = await startReferenceServer();
  if (available.ok && runnable.some((snippet) => snippet.redis)) redis = await available.start();
  await rm(RUN, { recursive: true, force: true });
  await mkdir(RUN, { recursive: true });
  const origin = new URL(server.url).origin;
  for (const snippet of runnable)
    await writeFile(fileOf(snippet.where), programOf(snippet, origin));
});

afterAll(async () => {
  await server?.close();
  await redis?.close();
});

test('the READMEs have snippets, and every block that does not run says why', () => {
  expect(runnable.length).toBeGreaterThan(10);
  for (const outline of snippets.filter((snippet) => snippet.outline !== undefined)) {
    // An outline describes an API; a block that imports or awaits something is a program.
    expect(outline.code, outline.where).not.toMatch(/\bimport\b|\bawait\b/);
  }
});

test.concurrent.for(runnable.map((snippet) => [snippet.where, snippet] as const))(
  '%s runs against the reference server',
  { timeout: 90_000 },
  async ([, snippet], ctx) => {
    if (snippet.redis) neededBy(ctx, available);
    const result = await run(process.execPath, [fileOf(snippet.where)], {
      cwd: ROOT,
      timeout: 60_000,
      env: {
        ...process.env,
        TOOLWIRE_SNIPPET_URL: server.url,
        ...(redis ? { REDIS_URL: redis.url } : {}),
        TOOLWIRE_KEY: key,
      },
    }).catch((error: { code?: unknown; stderr?: string; stdout?: string }) => error);
    expect(result.stderr ?? '', `${snippet.where}\n${result.stdout ?? ''}`).toBe('');
    expect('code' in result ? result.code : 0).toBe(0);
  },
);

test('every snippet type-checks against the built packages', async () => {
  await writeFile(
    join(RUN, 'tsconfig.json'),
    JSON.stringify({
      // A user's settings: strict, ES modules, the built types through `exports`.
      compilerOptions: {
        target: 'es2023',
        lib: ['es2024', 'esnext.disposable', 'dom'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        types: ['node'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        allowImportingTsExtensions: true,
      },
      include: ['*.ts'],
    }),
  );
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const checked = await run(process.execPath, [tsc, '-p', join(RUN, 'tsconfig.json')], {
    cwd: ROOT,
  }).catch((error: { stdout: string; stderr: string }) => error);
  expect(`${checked.stdout}${checked.stderr}`.trim()).toBe('');
}, 120_000);
