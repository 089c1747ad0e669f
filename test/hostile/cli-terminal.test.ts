/**
 * The built `toolwire` command against a server whose names, descriptions, results, progress and
 * errors are escape sequences: nothing the server sends reaches stdout or stderr as a control
 * character (newline and tab aside), with or without --json, and a tool name with something odd
 * in it is shown with that thing written out, not obeyed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Run, toolwire } from '../helpers/toolwire.ts';
import {
  FAILING_NAME,
  HIDDEN_NAME,
  type HostileServer,
  PROGRESS_NAME,
  startHostileServer,
} from './terminal-server.ts';

/** Any C0 control but newline and tab, DEL, or any C1 control. */
const CONTROL = /(?![\n\t])\p{Cc}/u;

/** The name as inspect must show it: the cursor moves written out. */
const SHOWN_NAME = String.raw`rm_rf\x1b[2K\x1b[1Gsafe_tool`;

let server: HostileServer;

beforeAll(async () => {
  server = await startHostileServer();
});

afterAll(() => server.close());

function expectClean(run: Run): void {
  expect(run.stdout).not.toMatch(CONTROL);
  expect(run.stderr).not.toMatch(CONTROL);
}

/** The one JSON document on stdout, with nothing raw in it. */
function parsed(run: Run): Record<string, unknown> {
  expectClean(run);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe('a hostile server and the terminal', () => {
  it('inspect prints no control character and writes out the odd tool name', async () => {
    const run = await toolwire(['inspect', server.url]);
    expect(run.code).toBe(0);
    expectClean(run);
    expect(run.stdout).toContain(SHOWN_NAME);
    expect(run.stdout).toContain(String.raw`fails\x9b31m\x9d0;c1 title\x9c`);
    // The instructions keep their own line break.
    expect(run.stdout).toMatch(/\n {14}Second line/);
  });

  it('inspect --json escapes every control character, and the names round-trip exactly', async () => {
    const run = await toolwire(['inspect', server.url, '--json']);
    expect(run.code).toBe(0);
    const json = parsed(run);
    expect(run.stderr).toBe('');
    const tools = json['tools'] as Array<{ name: string }>;
    expect(tools.map((tool) => tool.name)).toEqual([HIDDEN_NAME, FAILING_NAME, PROGRESS_NAME]);
  });

  it("call prints a tool's text, links, resources and structured content with nothing raw", async () => {
    for (const json of [[], ['--json']]) {
      const run = await toolwire(['call', server.url, HIDDEN_NAME, ...json]);
      expect(run.code).toBe(0);
      expectClean(run);
      expect(run.stdout).toContain('result');
      expect(run.stdout).toContain('embedded');
    }
  });

  it('progress messages on stderr and a tool failure are as clean', async () => {
    const progress = await toolwire(['call', server.url, PROGRESS_NAME]);
    expect(progress.code).toBe(0);
    expectClean(progress);
    expect(progress.stderr).toContain('progress 1/2 halfway');

    const failed = await toolwire(['call', server.url, HIDDEN_NAME, 'fail=1']);
    expect(failed.code).toBe(1);
    expectClean(failed);
    expect(failed.stderr).toContain(`${SHOWN_NAME} reported a failure`);
  });

  it("the server's error message reaches stderr clean, with and without --json", async () => {
    const plain = await toolwire(['call', server.url, FAILING_NAME]);
    expect(plain.code).toBe(4);
    expectClean(plain);
    expect(plain.stderr).toContain('the server broke');

    const json = await toolwire(['call', server.url, FAILING_NAME, '--json']);
    expect(json.code).toBe(4);
    expect(parsed(json)).toMatchObject({ error: { exitCode: 4 } });
    expect(json.stderr).toContain('the server broke');
  });

  it('a usage error naming the tools on offer writes their names out', async () => {
    const run = await toolwire(['call', server.url, 'nope']);
    expect(run.code).toBe(2);
    expectClean(run);
    expect(run.stderr).toContain(`(it has ${SHOWN_NAME}, `);
  });

  it("skills prints a skill's description and the tools it asks for with nothing raw", async () => {
    const run = await toolwire(['skills', server.url]);
    expect(run.code).toBe(0);
    expectClean(run);
    expect(run.stdout).toContain(String.raw`! rm\x1b[2K\x1b[1Gls`);
    expect(run.stdout).toContain('Does things.');

    const json = await toolwire(['skills', server.url, '--json']);
    expect(json.code).toBe(0);
    const [skill] = parsed(json)['skills'] as Array<{ allowedTools: string[] }>;
    expect(skill?.allowedTools[0]).toBe(`rm\u001b[2K\u001b[1Gls`);
  });

  it('read and prompt print resources and prompts with nothing raw', async () => {
    for (const json of [[], ['--json']]) {
      const read = await toolwire(['read', server.url, 'ref://doc', ...json]);
      expect(read.code).toBe(0);
      expectClean(read);
      const prompt = await toolwire(['prompt', server.url, 'plain', ...json]);
      expect(prompt.code).toBe(0);
      expectClean(prompt);
      expect(prompt.stdout).toContain('prompt');
    }
  });
});
