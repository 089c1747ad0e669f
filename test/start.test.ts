/** `npm start` is the main job: it must run on a fresh checkout with no set-up and exit cleanly. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

test('npm start tours the reference server: revision, tools table, a call with progress, then exits', async () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['examples/tour.ts'], {
    cwd: root,
    timeout: 30_000,
  });
  expect(stdout).toContain('protocol revision 2025-11-25');
  expect(stdout).toMatch(/22 tools:\n(\s+\w+\s+.+\n){22}/);
  expect(stdout).toContain('5/5 step 5');
  expect(stdout).toContain('result     done after 5 steps');
  expect(stdout).toMatch(
    /as a task\n {2}pending\n( {2}working\n)*? {2}done\nresult {5}done: the long way round/,
  );
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
