/** The package README's agent example runs as shipped, with no API key, and exits. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

test('examples/agent.ts runs an agent over the reference server and prints each step', async () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['packages/adapter-langchain/examples/agent.ts'],
    { cwd: root, timeout: 30_000 },
  );
  expect(stdout).toContain('tools: ref_add, ref_media');
  expect(stdout).toContain('ai calls ref_add({"a":2,"b":40})');
  expect(stdout).toContain('structured: {"sum":42}');
  expect(stdout).toContain('tool ref_media: image, audio, text');
  expect(stdout).toContain('resource: ref://static/hello');
});

test('examples/elicitation.ts pauses an agent on the server question and resumes it with the answer', async () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['packages/adapter-langchain/examples/elicitation.ts'],
    { cwd: root, timeout: 30_000 },
  );
  expect(stdout).toContain('the server asks:');
  expect(stdout).toContain('tool: Hello, Ada!');
});
