/**
 * Registry packages as local servers, end to end: a stand-in `npx` on PATH (it records its
 * arguments, then runs the reference server on stdio) proves the command line a client spawns;
 * an mcpb bundle is written only when its bytes match its fileSha256.
 */
import { createHash } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import {
  createMcpClientFrom,
  DiscoveryError,
  RunnerMissingError,
  verifyBundle,
} from '@toolwire/client';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { binOf } from '../helpers/stdio.ts';
import { startDomain } from './domain.ts';

let dir: string;
const PATH = process.env['PATH'];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolwire-discovery-'));
});

afterEach(async () => {
  process.env['PATH'] = PATH;
  await rm(dir, { recursive: true, force: true });
});

test.skipIf(process.platform === 'win32')(
  'an npm package runs as npx -y NAME@VERSION, its environment passed on',
  async () => {
    const record = join(dir, 'args.json');
    await writeFile(
      join(dir, 'npx'),
      `#!/bin/sh\nnode -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify({ args: process.argv.slice(2), key: process.env.ACME_KEY }))' ${JSON.stringify(record)} "$@"\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(binOf('@toolwire/reference-server'))} --stdio\n`,
    );
    await chmod(join(dir, 'npx'), 0o755);
    process.env['PATH'] = `${dir}${delimiter}${PATH}`;
    await using client = await createMcpClientFrom(
      {
        server: {
          name: 'io.github.acme/weather',
          version: '1.0.0',
          description: 'Weather',
          packages: [
            {
              registryType: 'npm',
              identifier: '@acme/weather',
              version: '1.0.0',
              transport: { type: 'stdio' },
              environmentVariables: [{ name: 'ACME_KEY', isRequired: true, isSecret: true }],
            },
          ],
        },
      },
      { inputs: { ACME_KEY: 'k-1' } },
    );
    expect(await client.callTool('echo', { text: 'local' })).toMatchObject({
      content: [{ text: 'local' }],
    });
    expect(JSON.parse(await readFile(record, 'utf8'))).toEqual({
      args: ['-y', '@acme/weather@1.0.0'],
      key: 'k-1',
    });
  },
);

test('a package whose runner is missing fails with what to install, before anything runs', async () => {
  process.env['PATH'] = dir;
  const error = await createMcpClientFrom({
    name: 'io.github.acme/weather',
    packages: [
      {
        registryType: 'oci',
        identifier: 'ghcr.io/acme/weather',
        version: '1',
        transport: { type: 'stdio' },
      },
    ],
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RunnerMissingError);
  expect(error).toMatchObject({ runner: 'docker', install: expect.stringContaining('Docker') });
});

test('an mcpb bundle: written when its SHA-256 matches fileSha256, refused when not', async () => {
  await using host = await startDomain();
  const bytes = 'PK\u0003\u0004 not really a zip, but bytes all the same';
  host.docs.set('/bundle.mcpb', {
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  const sha = createHash('sha256').update(bytes).digest('hex');
  const pkg = {
    registryType: 'mcpb',
    identifier: `${host.origin}/bundle.mcpb`,
    fileSha256: sha,
    transport: { type: 'stdio' },
  };
  const verified = await verifyBundle(pkg, { dir });
  expect(verified).toEqual({ file: join(dir, `${sha}.mcpb`), from: pkg.identifier, sha256: sha });
  expect(await readFile(verified.file, 'utf8')).toBe(bytes);

  const other = await mkdtemp(join(tmpdir(), 'toolwire-bundle-'));
  try {
    const wrong = await verifyBundle({ ...pkg, fileSha256: 'f'.repeat(64) }, { dir: other }).catch(
      (e: unknown) => e,
    );
    expect(wrong).toBeInstanceOf(DiscoveryError);
    expect(wrong).toMatchObject({ document: 'bundle' });
    expect(await readdir(other)).toEqual([]);
  } finally {
    await rm(other, { recursive: true, force: true });
  }
});
