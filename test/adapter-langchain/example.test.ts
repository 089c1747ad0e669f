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
  expect(stdout).toContain('tool ref_media: image, audio, text, text-plain');
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

async function runExample(name: string): Promise<string> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [`packages/adapter-langchain/examples/${name}`],
    { cwd: root, timeout: 60_000 },
  );
  return stdout;
}

test('examples/conventions.ts: interruptOn, custom stream progress, deferred tools, pins, a view, instructions', async () => {
  const stdout = await runExample('conventions.ts');
  expect(stdout).toContain(
    'interruptOn {"echo":false,"log":{"allowedDecisions":["approve","reject"]}}',
  );
  expect(stdout).toContain('paused      before log');
  expect(stdout).toContain('rejected    Not logged.');
  expect(stdout).toContain('progress    2/2');
  expect(stdout).toMatch(/deferred {4}(\d+) of (\d+)/);
  expect(stdout).toContain('app-only    not offered to the model');
  expect(stdout).toContain('view        ui://reference/counter-view: text/html;profile=mcp-app');
  expect(stdout).toContain('instructions Deterministic MCP reference server');
});

test('examples/servers.ts: a local and a remote server as one toolkit, one stopping mid-run', async () => {
  const stdout = await runExample('servers.ts');
  expect(stdout).toContain('tools       docs__echo (docs), admin__add (admin)');
  expect(stdout).toContain('tool        docs__echo: success');
  expect(stdout).toContain('down        admin');
  expect(stdout).toContain('tool        admin__add: error');
  expect(stdout).toContain('tools now   docs__echo');
});
