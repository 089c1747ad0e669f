/**
 * Runs one scenario of the conformance suite in its own process group, and reads back the
 * suite's verdict: its exit code (single-scenario mode exits 1 on any failed check, and in client
 * mode also on a warning, a timeout or a client that exited non-zero) and the checks it wrote.
 * A run that outlives its deadline has its whole process tree killed, so nothing can hang CI.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLIENT_COMMAND, NODE } from './lines.ts';
import type { Suite } from './suites.ts';

/** How long the suite lets the client under test run (its own `--timeout`). */
const SUITE_TIMEOUT_MS = 15_000;
/** The hard bound on one scenario, suite and client together. */
export const SCENARIO_DEADLINE_MS = 30_000;
/** Enough of the suite's output to explain a failure without flooding the report. */
const OUTPUT_TAIL_CHARS = 6_000;

export interface Check {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  description: string;
  errorMessage?: string;
}

export interface ScenarioRun {
  /** `passed` is exit code 0; `hung` means the run outlived its deadline and was killed. */
  outcome: 'passed' | 'failed' | 'hung';
  checks: readonly Check[];
  /** The tail of the suite's stdout and stderr (which carries the client's output on failure). */
  output: string;
}

/** The suite's arguments for one scenario: a requirement set's scenario is pinned to its wire. */
function suiteArguments(suite: Suite, scenario: string, target: string): string[] {
  const args =
    suite.mode === 'client'
      ? ['client', '--command', CLIENT_COMMAND, '--timeout', String(SUITE_TIMEOUT_MS)]
      : ['server', '--url', target];
  // 0.2's server mode bounds each scenario too; 0.1.16's has no such option.
  if (suite.mode === 'server' && suite.line.name !== 'stable') {
    args.push('--timeout', String(SUITE_TIMEOUT_MS));
  }
  args.push('--scenario', scenario);
  // What `--requirements R` does for each scenario (which cannot be combined with --scenario).
  if (suite.requirements !== undefined) args.push('--spec-version', suite.requirements, '--force');
  return args;
}

/**
 * The environment for the suite and the client it starts: no MCP_CONFORMANCE_* of a developer's
 * own leaking in, and Node's compile cache on, which takes a quarter off each process's start.
 */
function scenarioEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('MCP_CONFORMANCE_')),
  );
  env['NODE_COMPILE_CACHE'] ??= join(tmpdir(), 'toolwire-conformance-compile-cache');
  return env;
}

async function readChecks(dir: string): Promise<Check[]> {
  const files = (await readdir(dir, { recursive: true })).filter((file) =>
    file.endsWith('checks.json'),
  );
  const checks: Check[] = [];
  for (const file of files) {
    checks.push(...(JSON.parse(await readFile(join(dir, file), 'utf8')) as Check[]));
  }
  return checks;
}

/** Kills the group the suite leads: the suite, the shell it starts, and the client under test. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone: ESRCH is the normal case after a clean exit.
  }
}

/** Runs `scenario` of `suite`; `target` is the server URL in server mode (ignored for clients). */
export async function runScenario(
  suite: Suite,
  scenario: string,
  target = '',
  deadlineMs = SCENARIO_DEADLINE_MS,
): Promise<ScenarioRun> {
  const dir = await mkdtemp(join(tmpdir(), 'toolwire-conformance-'));
  try {
    const child = spawn(
      NODE,
      [suite.line.cli, ...suiteArguments(suite, scenario, target), '--output-dir', dir],
      // Its own process group, so that one kill reaches the client the suite started.
      { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: scenarioEnvironment() },
    );
    let output = '';
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let hung = false;
    const deadline = setTimeout(() => {
      hung = true;
      killGroup(child.pid);
    }, deadlineMs);
    const exitCode = await new Promise<number | null>((resolve) => {
      child.on('close', (code) => resolve(code));
      child.on('error', () => resolve(null));
    });
    clearTimeout(deadline);
    // A client the suite lost track of must not outlive its scenario either.
    killGroup(child.pid);
    const outcome = hung ? 'hung' : exitCode === 0 ? 'passed' : 'failed';
    const checks = hung ? [] : await readChecks(dir);
    return { outcome, checks, output };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
