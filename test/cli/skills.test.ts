/**
 * `toolwire skills` and `toolwire skill` against the reference server, as a script runs them:
 * the listing with each skill's server, uri, file count and the tools it asks for; a skill's
 * verified files written under DIR/<server>/<skill path>/, never through a symlink, never over a
 * file without --force, a dynamic skill only with --dynamic, and a lying skill not at all.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { toolwire, toolwireJson } from '../helpers/toolwire.ts';

let server: ReferenceServer;
let dir: string;
/** The server's directory name: its URL's host, made plain. */
let label: string;

beforeAll(async () => {
  server = await startReferenceServer();
  label = new URL(server.url).host.replace(':', '_');
});

afterAll(async () => {
  await server.close();
});

beforeEach(async (context) => {
  dir = await mkdtemp(join(tmpdir(), 'toolwire-skills-'));
  server.faults.hostileSkills();
  context.onTestFinished(() => rm(dir, { recursive: true, force: true }));
});

test('skills lists each with its server, uri, files or "dynamic", and the tools it asks for', async () => {
  const { code, json } = await toolwireJson(['skills', server.url]);
  expect(code).toBe(0);
  expect(json['server']).toBe(label);
  const skills = json['skills'] as Array<Record<string, unknown>>;
  expect(skills.map((skill) => [skill['name'], skill['files']])).toEqual([
    ['greeting', 3],
    ['toolbox', expect.any(Number)],
    ['live', 'dynamic'],
  ]);
  expect(skills[0]).toMatchObject({
    server: label,
    uri: 'skill://reference/greeting/SKILL.md',
    allowedTools: ['echo', 'add'],
  });

  const plain = await toolwire(['skills', server.url]);
  expect(plain.code).toBe(0);
  expect(plain.stdout).toMatch(
    /greeting +127\.0\.0\.1_\d+ +3 +skill:\/\/reference\/greeting\/SKILL\.md +! echo add/,
  );
  expect(plain.stderr).toContain('nothing is granted by asking');
});

test('skill --out writes the verified files under DIR/<server>/<skill path>/, and never over one', async () => {
  const { code, json } = await toolwireJson(['skill', server.url, 'greeting', '--out', dir]);
  expect(code).toBe(0);
  const root = join(dir, label, 'reference', 'greeting');
  expect(json['dir']).toBe(root);
  expect(await readFile(join(root, 'scripts', 'hello.sh'), 'utf8')).toBe('echo "hello, $1"\n');
  expect(await readFile(join(root, 'SKILL.md'), 'utf8')).toContain('Run scripts/hello.sh');

  await writeFile(join(root, 'SKILL.md'), 'mine');
  const again = await toolwire(['skill', server.url, 'greeting', '--out', dir]);
  expect(again.code).toBe(2);
  expect(again.stderr).toContain('--force replaces it');
  expect(await readFile(join(root, 'SKILL.md'), 'utf8')).toBe('mine');

  const forced = await toolwire(['skill', server.url, 'greeting', '--out', dir, '--force']);
  expect(forced.code).toBe(0);
  expect(await readFile(join(root, 'SKILL.md'), 'utf8')).toContain('Run scripts/hello.sh');
});

test('a symlink in the way is refused, not followed: nothing lands outside DIR', async () => {
  const elsewhere = join(dir, 'elsewhere');
  const out = join(dir, 'out');
  await mkdir(elsewhere);
  await mkdir(join(out, label), { recursive: true });
  await symlink(elsewhere, join(out, label, 'reference'));
  const run = await toolwire(['skill', server.url, 'greeting', '--out', out]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('not a directory of its own');
  expect(await readdir(elsewhere)).toEqual([]);
});

test('a dynamic skill is refused without --dynamic; a lying skill is never written', async () => {
  const refused = await toolwire(['skill', server.url, 'live', '--out', dir]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('--dynamic');
  expect(await readdir(dir)).toEqual([]);

  const taken = await toolwireJson(['skill', server.url, 'live', '--out', dir, '--dynamic']);
  expect(taken.code).toBe(0);
  expect(taken.json['verified']).toBe(false);

  server.faults.hostileSkills('wrong-digest');
  const out = join(dir, 'lies');
  const lying = await toolwire(['skill', server.url, 'greeting', '--out', out]);
  expect(lying.code).toBe(4);
  expect(lying.stderr).toContain('digest');
  // Every file is verified before the first is written.
  await expect(readdir(out)).rejects.toThrow(/ENOENT/);
});

test('two skills of one name: the name alone is refused with their uris', async () => {
  server.faults.hostileSkills('same-name');
  const run = await toolwire(['skill', server.url, 'greeting', '--out', dir]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('skill://reference/greeting/SKILL.md');
  expect(run.stderr).toContain('skill://reference/other/greeting/SKILL.md');
  expect(await readdir(dir)).toEqual([]);
});
