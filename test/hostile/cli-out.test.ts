/**
 * `--out DIR` with the built `toolwire` command: a file already there is refused unless --force,
 * and a symlink planted in DIR is never written through, with or without --force.
 */
import { lstat, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toolwire } from '../helpers/toolwire.ts';

let server: ReferenceServer;
let dir: string;

beforeAll(async () => {
  server = await startReferenceServer({ dualEra: true });
  dir = await mkdtemp(join(tmpdir(), 'toolwire-hostile-out-'));
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

it('refuses to overwrite a file in --out, and --force replaces it', async () => {
  const out = join(dir, 'again');
  const first = await toolwire(['call', server.url, 'media', '--out', out]);
  expect(first.code).toBe(0);
  const image = join(out, 'media-1.png');
  await writeFile(image, 'kept');

  const second = await toolwire(['call', server.url, 'media', '--out', out]);
  expect(second.code).toBe(2);
  expect(second.stderr).toContain(
    `${image} is already there, and --out never overwrites a file: --force replaces it`,
  );
  expect(await readFile(image, 'utf8')).toBe('kept');

  const forced = await toolwire(['call', server.url, 'media', '--out', out, '--force']);
  expect(forced.code).toBe(0);
  expect((await readFile(image)).subarray(1, 4).toString()).toBe('PNG');
});

it('never writes through a symlink planted in --out', async () => {
  const out = join(dir, 'planted');
  const victim = join(dir, 'victim');
  await writeFile(victim, 'precious');
  await toolwire(['call', server.url, 'media', '--out', out]);
  await rm(join(out, 'media-1.png'));
  await symlink(victim, join(out, 'media-1.png'));

  const refused = await toolwire(['call', server.url, 'media', '--out', out]);
  expect(refused.code).toBe(2);
  expect(await readFile(victim, 'utf8')).toBe('precious');

  const forced = await toolwire(['call', server.url, 'media', '--out', out, '--force']);
  expect(forced.code).toBe(0);
  expect(await readFile(victim, 'utf8')).toBe('precious');
  expect((await lstat(join(out, 'media-1.png'))).isSymbolicLink()).toBe(false);
});
