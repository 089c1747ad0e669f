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
    { cwd: root, timeout: 60_000 },
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

test('examples/conventions.ts: toolApproval, tool search, preliminary results, pins, a view, instructions', async () => {
  const stdout = await runExample('conventions.ts');
  expect(stdout).toContain('approval?   log');
  expect(stdout).toMatch(/found {7}.*\badd\b/);
  expect(stdout).toContain('answer      The sum is 42.');
  expect(stdout).toContain('progress    3/3');
  expect(stdout).toContain('result      [{"type":"text","text":"done after 3 steps"}]');
  expect(stdout).toMatch(/pinned {6}(\d+) of \1 tools/);
  expect(stdout).toContain('view        ui://reference/counter-view: text/html;profile=mcp-app');
  expect(stdout).toContain('app-only    not offered to the model');
  expect(stdout).toContain('instructions Deterministic MCP reference server');
});

test('examples/servers.ts: an mcpServers configuration (one local, one remote) as one tool set, one server stopping', async () => {
  const stdout = await runExample('servers.ts');
  expect(stdout).toContain('tools       docs__echo, admin__add');
  expect(stdout).toContain('result      docs__echo from docs');
  expect(stdout).toContain('result      admin__add from admin');
  expect(stdout).toContain('down        admin (TransportError)');
  expect(stdout).toContain('failed      admin__add');
  expect(stdout).toContain('tools now   docs__echo');
});
