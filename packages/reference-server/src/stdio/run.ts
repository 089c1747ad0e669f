/**
 * The bin's `--stdio` mode: the reference server on this process's own standard streams, with
 * the faults that belong to the process itself (signals, a process of its own, not exiting).
 */
import { spawn } from 'node:child_process';
import type { StdioFaults } from './faults.ts';
import { type StdioEra, serveStdio } from './serve.ts';

export function runStdio(era: StdioEra, faults: StdioFaults): void {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (faults.ignoreSigterm) process.on('SIGTERM', () => log('SIGTERM ignored, as some servers do'));
  if (faults.grandchild) {
    // It shares our stdout and runs until killed, as the real server behind an `npx` wrapper does.
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.unref();
    log(`grandchild pid ${child.pid}`);
  }
  const server = serveStdio(process.stdin, process.stdout, {
    era,
    faults,
    log,
    exit: (code) => process.exit(code),
  });
  // Keeps the process alive after stdin ends, for the fault that ignores it.
  if (faults.ignoreEof) setInterval(() => {}, 60_000);
  void server.ended;
}
