/**
 * Local servers for the stdio tests, started the way users start them: a command, its arguments
 * and its environment. The reference server runs from its installed bin.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { StdioServer } from '@toolwire/client';

const require = createRequire(import.meta.url);

/** The path of a package's bin, as npm would run it. */
export function binOf(pkg: string, name?: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const path = typeof bin === 'string' ? bin : bin[name ?? Object.keys(bin)[0]!]!;
  return join(dirname(manifest), path);
}

/** The reference server on stdio, with the bin's flags (`--era legacy`, faults). */
export function referenceStdio(...flags: string[]): StdioServer {
  return {
    command: process.execPath,
    args: [binOf('@toolwire/reference-server'), '--stdio', ...flags],
  };
}

/** Whether a process runs (a zombie waiting to be reaped does not count). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

/** The pids of a process's children, from /proc (Linux); empty elsewhere. */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}
