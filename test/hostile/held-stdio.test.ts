/**
 * Held: a local (stdio) server is a program the user chose, not one handed the parent's secrets
 * or a shell. Its child process gets the safe variables and what the caller passes, never the
 * rest of the environment; its command and arguments reach it as they are, never interpreted by
 * a shell; and a server that writes one line that never ends ends the call typed, with the
 * client's memory flat while it writes. Against the built client and CLI.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMcpClient, McpError, TimeoutError } from '@toolwire/client';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { toolwire } from '../helpers/toolwire.ts';
import { MiB, peakGrowth } from './memory.ts';
import { tinyStdio, tinyStdioCommand, tinyStdioFile } from './stdio-server.ts';

/** Secrets an application's own environment holds, which no server it starts should see. */
const PARENT_SECRETS = {
  TOOLWIRE_TEST_SECRET: 'parent-secret-5d1f',
  AWS_SECRET_ACCESS_KEY: 'parent-secret-aws-8c2e',
  GITHUB_TOKEN: 'parent-secret-ghp-3a7b',
  OPENAI_API_KEY: 'parent-secret-sk-9e4c',
};

/** What a server inherits on POSIX (the client's INHERITED_ENV), plus what the test passes. */
const SAFE = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TMPDIR',
];

function textOf(result: { content: unknown[] }): string {
  const [first] = result.content as { type: string; text: string }[];
  return first?.text ?? '';
}

describe.skipIf(process.platform === 'win32')('a server child gets a minimal environment', () => {
  beforeEach(() => Object.assign(process.env, PARENT_SECRETS));
  afterEach(() => {
    for (const name of Object.keys(PARENT_SECRETS)) delete process.env[name];
  });

  test("the client: the safe variables and what was passed, none of the parent's secrets", async () => {
    await using client = createMcpClient(tinyStdio([], { GIVEN: 'by-the-caller' }), {
      timeoutMs: 10_000,
    });
    const env = JSON.parse(textOf(await client.callTool('env'))) as Record<string, string>;
    expect(env['GIVEN']).toBe('by-the-caller');
    expect(env['PATH']).toBe(process.env['PATH']);
    for (const name of Object.keys(PARENT_SECRETS)) expect(env).not.toHaveProperty(name);
    expect(Object.keys(env).filter((name) => !SAFE.includes(name) && name !== 'GIVEN')).toEqual([]);
    const values = JSON.stringify(env);
    for (const secret of Object.values(PARENT_SECRETS)) expect(values).not.toContain(secret);
  });

  test("the CLI (`toolwire call … -- COMMAND`): none of the parent's secrets", async () => {
    const run = await toolwire(['call', 'env', '--', ...tinyStdioCommand()], {
      env: { ...process.env, ...PARENT_SECRETS },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('PATH');
    for (const [name, secret] of Object.entries(PARENT_SECRETS)) {
      expect(run.stdout).not.toContain(name);
      expect(run.stdout + run.stderr).not.toContain(secret);
    }
  });
});

describe.skipIf(process.platform === 'win32')('no shell between the client and the server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolwire-held-stdio-'));
  const marker = (n: number) => join(dir, `touched-${n}`);
  /** Arguments a shell would run something for; each would create a marker file. */
  const hostileArgs = [
    `; touch ${marker(1)}`,
    `$(touch ${marker(2)})`,
    `\`touch ${marker(3)}\``,
    `| touch ${marker(4)}`,
    `&& touch ${marker(5)}`,
    `> ${marker(6)}`,
    `"'; touch ${marker(7)}; echo '"`,
    `\n touch ${marker(8)}`,
  ];
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('arguments with shell metacharacters reach the server as they are, and run nothing', async () => {
    await using client = createMcpClient(tinyStdioFile(dir, hostileArgs), { timeoutMs: 10_000 });
    const argv = JSON.parse(textOf(await client.callTool('argv'))) as string[];
    expect(argv).toEqual(hostileArgs);
    for (let n = 1; n <= hostileArgs.length; n++) expect(existsSync(marker(n))).toBe(false);
  });

  test('the CLI passes them on the same way', async () => {
    const { command, args } = tinyStdioFile(dir, hostileArgs);
    const run = await toolwire(['call', 'argv', '--', command, ...(args ?? [])]);
    expect(run.code, run.stderr).toBe(0);
    for (let n = 1; n <= hostileArgs.length; n++) expect(existsSync(marker(n))).toBe(false);
    expect(run.stdout).toContain('touched-1');
  });

  test('a command with shell metacharacters is a program name that is not found, typed', async () => {
    for (const command of [
      `true; touch ${marker(20)}`,
      `$(touch ${marker(21)})`,
      `true && touch ${marker(22)}`,
    ]) {
      await using client = createMcpClient(
        { command, args: [] },
        { timeoutMs: 3_000, connectTimeoutMs: 2_000 },
      );
      const error = await client.listTools().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
    }
    for (const n of [20, 21, 22]) expect(existsSync(marker(n))).toBe(false);
  });
});

test('a server writing one line that never ends: a typed failure, and the client holds none of it', async () => {
  // Far past the largest message the client reads (maxResponseBytes, 16 MiB by default).
  const written = 192;
  await using client = createMcpClient(tinyStdio([], { ENDLESS_MIB: String(written) }), {
    timeoutMs: 3_000,
  });
  await client.listTools();
  const { outcome, growth } = await peakGrowth(() =>
    client.callTool('endless').catch((e: unknown) => e),
  );
  expect(outcome).toBeInstanceOf(TimeoutError);
  expect(outcome).toMatchObject({ code: 'TIMEOUT', tool: 'endless' });
  // Holding what was written would be 192 MiB; the client keeps at most one message's limit.
  expect(growth, `${(growth / MiB).toFixed(1)} MiB held`).toBeLessThan(48 * MiB);
});
