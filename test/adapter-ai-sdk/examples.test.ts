/** The package README's examples run as they are, and exit on their own. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function runExample(name: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [`packages/adapter-ai-sdk/examples/${name}`],
    { cwd: root, timeout: 30_000 },
  );
  return stdout;
}

test('examples/generate-text.ts: a generateText loop over the server tools', async () => {
  const stdout = await runExample('generate-text.ts');
  expect(stdout).toContain('tool-result media: image, audio, resource_link, resource');
  expect(stdout).toContain('/a must be number');
  expect(stdout).toContain('text        The sum is 42.');
});

test('examples/options.ts: two servers, approval, hooks and a refreshed tool set', async () => {
  const stdout = await runExample('options.ts');
  expect(stdout).toContain('calling     admin_toggle_tool');
  expect(stdout).toContain('approval?   admin_progress is progress on the admin server');
  expect(stdout).toContain('new tools   admin_bonus');
});
