/**
 * The benchmark run: starts the bench server, then for each round runs every client in a fresh
 * child process (the order rotated each round, so no client always runs first or last), and
 * writes the report to bench/results/<date>-<quick|full>.md and bench/results/latest.md.
 * The client is built first, so its import time is also taken from dist/, as a user pays it.
 *
 * Usage: node --conditions=@toolwire/source bench/run.ts [--quick]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { measureCliStartup } from './cli-startup.ts';
import { ENTRIES } from './modules.ts';
import { markdown, type RoundResults } from './report.ts';
import type { WorkerResult } from './worker.ts';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 2 : 5;
const CHILD_TIMEOUT_MS = quick ? 30_000 : 90_000;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const children = new Set<ChildProcess>();

/** Runs a child to completion and returns its stdout; killed when it overruns. */
function runChild(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    children.add(child);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      if (code === 0) resolve(out);
      else reject(new Error(`${args.join(' ')}: exit ${code ?? signal}`));
    });
  });
}

/** Starts the server; its stdin is our pipe, so it also exits if this process dies. */
function startServer(): Promise<{ port: string; grpcPort: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [here('./server.ts')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.add(child);
    const timer = setTimeout(() => reject(new Error('server did not start')), 10_000);
    child.stdout?.setEncoding('utf8').once('data', (line: string) => {
      clearTimeout(timer);
      const [, port, grpcPort] = /PORT (\d+) GRPC (\d+)/.exec(line) ?? [];
      if (port && grpcPort) resolve({ port, grpcPort, child });
      else reject(new Error(`server said: ${line}`));
    });
  });
}

const FLAGS = ['--conditions=@toolwire/source'];

/** Builds @toolwire/client's dist/ (import time from the published form); false if it fails. */
async function buildClient(): Promise<boolean> {
  const tsc = fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url));
  const project = here('../packages/client/tsconfig.build.json');
  return new Promise((resolve) => {
    const child = spawn(tsc, ['-p', project], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');

/** All CPUs' jiffies, and those stolen by the hypervisor (Linux /proc/stat; undefined elsewhere). */
async function cpuTimes(): Promise<{ total: number; steal: number } | undefined> {
  try {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0]!;
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 };
  } catch {
    return undefined;
  }
}

/** The share of CPU time the hypervisor took from this host while the run lasted. */
function stealShare(
  before: { total: number; steal: number } | undefined,
  after: { total: number; steal: number } | undefined,
): string {
  if (!before || !after || after.total === before.total) return 'not measured';
  return `${((100 * (after.steal - before.steal)) / (after.total - before.total)).toFixed(1)}%`;
}

async function main(): Promise<void> {
  const started = new Date();
  const loadBefore = load();
  const cpuBefore = await cpuTimes();
  const built = await buildClient();
  if (!built) process.stderr.write('client build failed: import time from sources only\n');
  const { port, grpcPort } = await startServer();
  const rounds: RoundResults[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = ENTRIES.map((_, i) => ENTRIES[(i + round) % ENTRIES.length]!);
    const results = new Map<string, WorkerResult>();
    const importMs = new Map<string, number>();
    const importSourceMs = new Map<string, number>();
    for (const client of order) {
      if (client.modules.length > 0) {
        const timed = (flags: string[]) =>
          runChild([...flags, here('./import-time.ts'), client.id]).then(Number);
        // toolwire twice: from dist/ (what a user pays) and from its TypeScript sources.
        if (client.fromSources) importSourceMs.set(client.id, await timed(FLAGS));
        if (!client.fromSources || built) importMs.set(client.id, await timed([]));
      }
      const args = [
        ...FLAGS,
        '--expose-gc',
        '--no-flush-bytecode',
        here('./worker.ts'),
        client.id,
        port,
        grpcPort,
      ];
      if (quick) args.push('--quick');
      try {
        results.set(client.id, JSON.parse(await runChild(args)) as WorkerResult);
      } catch (error) {
        process.stderr.write(`round ${round + 1}, ${client.id}: ${String(error)}\n`);
      }
    }
    let cliMs = new Map<string, number>();
    try {
      cliMs = await measureCliStartup(port, quick ? 3 : 5);
    } catch (error) {
      process.stderr.write(`round ${round + 1}, CLI start-up: ${String(error)}\n`);
    }
    rounds.push({ results, importMs, importSourceMs, cliMs });
    process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
  }
  const seconds = (Date.now() - started.getTime()) / 1000;
  const date = started.toISOString().slice(0, 10);
  const header = [
    `# toolwire benchmarks, ${quick ? 'quick' : 'full'} run`,
    '',
    `- date: ${started.toISOString()}`,
    `- Node ${process.version}, ${process.platform}/${process.arch}`,
    `- CPU: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores (server and client share them)`,
    `- ${ROUNDS} rounds, every client in its own process each round; run took ${seconds.toFixed(0)} s`,
    `- load average (1 / 5 / 15 min) at the start ${loadBefore}, at the end ${load()}`,
    `- CPU steal over the run: ${stealShare(cpuBefore, await cpuTimes())}`,
  ];
  const text = markdown(header, rounds);
  const dir = here('./results/');
  await mkdir(dir, { recursive: true });
  await writeFile(`${dir}${date}-${quick ? 'quick' : 'full'}.md`, text);
  await writeFile(`${dir}latest.md`, text);
  process.stdout.write(text);
}

try {
  await main();
} finally {
  for (const child of children) child.kill('SIGTERM');
}
