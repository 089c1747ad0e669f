/** `npm start` is the main job: it must run on a fresh checkout with no set-up and exit cleanly. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { toolwire } from './helpers/toolwire.ts';

test('npm start runs the CLI demo; without a terminal the form takes its defaults', async () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
    scripts: Record<string, string>;
  };
  // What npm start runs once the build is done; the build itself is the suite's first step.
  expect(manifest.scripts['start']).toBe('npm run -s build && toolwire demo');
  const { code, stdout, stderr } = await toolwire(['demo'], { timeoutMs: 60_000 });
  expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
  expect(stdout).toMatch(/\$ toolwire inspect http:\/\/127\.0\.0\.1:\d+\/mcp\n/);
  expect(stdout).toContain('dialect       MCP, stateless, over HTTP\nrevision      2026-07-28\n');
  expect(stdout).toContain('\ntools (24)\n');
  expect(stdout).toContain('$ toolwire call');
  expect(stdout).toContain('\ndone after 5 steps\n');
  expect(stderr).toContain('progress 5/5 step 5\n');
  expect(stdout).toContain('\ndone: the long way round\n');
  expect(stderr).toMatch(/\ntask pending\n(task working\n)*task done\n/);
  expect(stdout).toContain('No one is at a terminal, so --yes answers with the defaults');
  expect(stdout).toMatch(
    /"action": "accept",\s+"content": \{\s+"name": "Ada",\s+"language": "TypeScript"/,
  );
  expect(stdout).toContain('Now point it at a real server:\n  npx toolwire inspect https://');
});

test('examples/handlers.ts answers the survey the same way in a legacy session and at 2026-07-28', async () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['examples/handlers.ts'], {
    cwd: root,
    timeout: 30_000,
  });
  const surveys = stdout.match(/survey {3}→ .+/g) ?? [];
  expect(surveys).toHaveLength(2);
  expect(surveys[0]).toBe(surveys[1]);
  expect(surveys[0]).toContain('"content":{"name":"Ada"}');
  expect(stdout).toContain('(spoken at 2025-11-25)');
  expect(stdout).toContain('(spoken at 2026-07-28)');
  expect(stdout).toContain('"completed":true');
});

test('npm install links both bins of the workspace, and each runs its built JavaScript', async () => {
  // npm links bins before the root prepare builds dist/ and skips one whose file is missing:
  // each bin is a checked-in file that imports dist/, so a fresh clone gets both.
  const root = fileURLToPath(new URL('..', import.meta.url));
  const version = await promisify(execFile)(`${root}node_modules/.bin/toolwire`, ['--version']);
  expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  const server = execFile(`${root}node_modules/.bin/toolwire-reference-server`, ['--port', '0']);
  try {
    const printed = await new Promise<string>((resolve, reject) => {
      server.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        if (chunk.includes('http://')) resolve(chunk);
      });
      server.once('exit', (code) => reject(new Error(`the bin exited with ${code}`)));
    });
    expect(printed).toMatch(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
  } finally {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
});
