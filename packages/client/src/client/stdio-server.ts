/**
 * A local server as the client's target: the command that starts it, checked and resolved. What
 * the rest of the client knows of it is `label` (how errors name it: its command line) and `key`
 * (where its negotiation verdict is kept: a digest, so no argument is ever stored).
 */
import { sha256 } from '../core/digest.ts';
import { serverEnvironment } from '../wire/transport/stdio/environment.ts';
import type { ServerCommand } from '../wire/transport/stdio/process.ts';

/** A local server, started as a child process and spoken to over its stdin and stdout. */
export interface StdioServer {
  /** The program to run: `npx`, `uvx`, `node`, a path. Found on PATH; no shell is involved. */
  command: string;
  /** Its arguments. @default [] */
  args?: readonly string[];
  /** Its working directory. @default the current one */
  cwd?: string;
  /**
   * Variables it gets on top of the safe ones the client passes on (PATH, HOME, USER, SHELL,
   * TERM, LANG and the like; on Windows what programs need to find their profile). Pass
   * `process.env` to hand on the whole environment.
   * @default {}
   */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface ResolvedStdio {
  command: ServerCommand;
  label: string;
  key: string;
}

/** Options that only mean something over HTTP: refused for a local server. */
const HTTP_ONLY = ['headers', 'auth', 'dispatcher'] as const;

export function isStdioServer(target: unknown): target is StdioServer {
  return typeof target === 'object' && target !== null && !(target instanceof URL);
}

/** Checks what the caller gave (TypeError on misuse) and resolves the child's environment. */
export function resolveStdio(server: StdioServer, options: object): ResolvedStdio {
  const { command, args = [], cwd, env = {} } = server;
  if (typeof command !== 'string' || command === '') {
    throw new TypeError('expected `command` to be the program to run, a non-empty string');
  }
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
    throw new TypeError('expected `args` to be a list of strings');
  }
  if (cwd !== undefined && typeof cwd !== 'string') {
    throw new TypeError('expected `cwd` to be a directory path');
  }
  if (typeof env !== 'object' || env === null) {
    throw new TypeError('expected `env` to be an object of strings');
  }
  for (const name of HTTP_ONLY) {
    if ((options as Record<string, unknown>)[name] !== undefined) {
      throw new TypeError(`\`${name}\` applies to HTTP servers; a local (stdio) server takes none`);
    }
  }
  const label = `stdio:${[command, ...args].join(' ')}`;
  const key = `stdio:${sha256(JSON.stringify([command, args, cwd ?? null]), 'hex').slice(0, 32)}`;
  return {
    command: { command, args: [...args], cwd, env: serverEnvironment(env) },
    label,
    key,
  };
}
