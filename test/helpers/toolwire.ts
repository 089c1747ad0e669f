/**
 * The `toolwire` command as a user runs it: the bin that @toolwire/cli declares, started with this
 * Node, stdin a pipe (so no terminal: no prompts, colours or spinners).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const manifest = createRequire(import.meta.url).resolve('@toolwire/cli/package.json');
/** The path of the bin `toolwire` names. */
export const TOOLWIRE_BIN = join(
  dirname(manifest),
  (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { toolwire: string } }).bin.toolwire,
);

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function toolwire(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<Run> {
  const child = spawn(process.execPath, [TOOLWIRE_BIN, ...args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A bound on a command that hangs, never a timing assertion.
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs with `--json` and parses the one document on stdout. */
export async function toolwireJson(
  args: readonly string[],
  options?: Parameters<typeof toolwire>[1],
): Promise<Run & { json: Record<string, unknown> }> {
  // Before any --: what follows it is a local server's command line.
  const dash = args.indexOf('--');
  const withJson =
    dash === -1 ? [...args, '--json'] : [...args.slice(0, dash), '--json', ...args.slice(dash)];
  const run = await toolwire(withJson, options);
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(run.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`not one JSON document (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
  return { ...run, json };
}
