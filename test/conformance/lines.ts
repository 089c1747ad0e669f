/**
 * The two lines of @modelcontextprotocol/conformance this repository is judged by, installed side
 * by side under npm aliases (their `conformance` bins collide, so each runs by its dist path),
 * and the Node that runs them and the client under test. Every path is computed from this file,
 * never written down.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The repository's own Node 24 (a dev dependency): the shell's `node` may be older. */
export const NODE = fileURLToPath(new URL('../../node_modules/.bin/node', import.meta.url));

/** The client under test, run from its TypeScript source (Node 24 strips the types). */
export const CLIENT_PROGRAM = fileURLToPath(new URL('./client.ts', import.meta.url));

export interface Line {
  /** `stable` or `next`, the alias in package.json and the first part of a suite id. */
  readonly name: string;
  readonly version: string;
  /** The CLI entry point, `dist/index.js`. */
  readonly cli: string;
  /** Where the line keeps its frozen requirement sets (0.2 and later). */
  readonly requirementsDir: string;
}

function line(name: string, alias: string): Line {
  const root = dirname(require.resolve(`${alias}/package.json`));
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  return {
    name,
    version: manifest.version,
    cli: join(root, 'dist', 'index.js'),
    requirementsDir: join(root, 'requirements'),
  };
}

export const STABLE = line('stable', 'conformance-stable');
export const NEXT = line('next', 'conformance-next');

/** Quotes a path for the shell the suite runs `--command` through. */
function shellQuote(path: string): string {
  return `'${path.replaceAll("'", `'\\''`)}'`;
}

/**
 * The `--command` the suite runs for each client scenario. The suite splits it on spaces and
 * re-joins the parts for a shell, so quoted paths survive; the server URL is appended last.
 */
export const CLIENT_COMMAND = [shellQuote(NODE), shellQuote(CLIENT_PROGRAM)].join(' ');
