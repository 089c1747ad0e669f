/**
 * Runs a script of the test suite as its own Node process, the way an application runs a worker
 * (on the built packages, as installed), and reads the JSON lines it prints as they come.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface WorkerProcess extends AsyncDisposable {
  child: ChildProcess;
  /** Every JSON line printed so far. */
  events: Array<Record<string, unknown>>;
  /** Resolves when the process exits, with its code (or the signal that ended it). */
  exited: Promise<number | string>;
  /** stderr so far, for a failure message. */
  stderr(): string;
  kill(): Promise<void>;
}

export function startWorker(
  script: URL,
  args: string[],
  env: Record<string, string> = {},
  nodeOptions: string[] = [],
  options: { stdin?: boolean } = {},
): WorkerProcess {
  const child = spawn(process.execPath, [...nodeOptions, fileURLToPath(script), ...args], {
    env: { ...process.env, ...env },
    // A pipe to the worker's stdin when the test must tell it when to go.
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  const events: Array<Record<string, unknown>> = [];
  let errors = '';
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) events.push(JSON.parse(line));
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    errors += chunk;
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return { child, events, exited, stderr: () => errors, kill, [Symbol.asyncDispose]: kill };
}
