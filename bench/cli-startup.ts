/**
 * The toolwire command's start-up, as a user waits for it: wall time from spawning the process to
 * its exit, against the floor of Node starting and exiting with nothing to do. Three commands:
 * Node alone, `toolwire --version` (the argument parser, nothing of the client), and one whole
 * `toolwire call` against the bench server (the client loaded, 2026-07-28 negotiated, the tools
 * listed, one call, close).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MODERN_PATH, TOOLS } from './protocol.ts';
import { median } from './stats.ts';

const manifest = createRequire(import.meta.url).resolve('@toolwire/cli/package.json');
const BIN = join(
  dirname(manifest),
  (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { toolwire: string } }).bin.toolwire,
);

/** The commands timed, by the label the report shows. */
export function cliCommands(port: string): Array<[string, string[]]> {
  return [
    ['node -e 0 (the floor)', ['-e', '0']],
    ['toolwire --version', [BIN, '--version']],
    [
      `toolwire call …${MODERN_PATH} ${TOOLS.json} (connect, list, call, close)`,
      [BIN, 'call', `http://127.0.0.1:${port}${MODERN_PATH}`, TOOLS.json, '--json'],
    ],
  ];
}

/** Milliseconds from spawn to exit of `node …args`. */
function timed(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(performance.now() - started);
      else reject(new Error(`node ${args.join(' ')}: exit ${code}`));
    });
  });
}

/** The median of `samples` runs of each command, run in turn so drift hits them alike. */
export async function measureCliStartup(
  port: string,
  samples: number,
): Promise<Map<string, number>> {
  const commands = cliCommands(port);
  const times = new Map<string, number[]>(commands.map(([label]) => [label, []]));
  for (let sample = 0; sample < samples; sample++) {
    for (const [label, args] of commands) times.get(label)?.push(await timed(args));
  }
  return new Map([...times].map(([label, values]) => [label, median(values)]));
}
