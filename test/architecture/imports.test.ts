/**
 * The import graph of each library package's sources has no cycle, counting type-only imports
 * too: a cycle is a layer that knows the one above it, and the next change pays for it. In the
 * client, no module imports one of a higher layer (the layers of docs/architecture.md). Dynamic
 * `import()` is left out: it is how a package loads what only some users need, at run time.
 *
 * The reference server is not held to this yet: its tool modules and their registry import each
 * other's types (issue 22 tidies the client first).
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES = ['client', 'adapter-ai-sdk', 'adapter-langchain', 'cli', 'redis'];

/** Static imports and re-exports of relative modules, `import type` included. */
const IMPORT = /^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'|^import\s+'(\.[^']+)'/gms;

async function graphOf(src: string): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const entry of await readdir(src, { recursive: true })) {
    if (!entry.endsWith('.ts') || entry.endsWith('.test.ts')) continue;
    const file = join(src, entry);
    const text = await readFile(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((match) =>
      resolve(dirname(file), (match[1] ?? match[2])!),
    );
    graph.set(file, targets);
  }
  return graph;
}

/** Every strongly connected group of more than one module (Tarjan), as paths under `src`. */
function cyclesOf(graph: Map<string, string[]>, src: string): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(relative(src, member));
    } while (member !== node);
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

test.each(PACKAGES)('packages/%s/src imports without a cycle', async (name) => {
  const src = join(ROOT, 'packages', name, 'src');
  const graph = await graphOf(src);
  expect(graph.size).toBeGreaterThan(3);
  expect(cyclesOf(graph, src)).toEqual([]);
});

test('the check finds a cycle when there is one, and only the modules in it', () => {
  const graph = new Map([
    ['/src/a.ts', ['/src/b.ts']],
    ['/src/b.ts', ['/src/a.ts', '/src/c.ts']],
    ['/src/c.ts', []],
    ['/src/d.ts', ['/src/d.ts']],
  ]);
  expect(cyclesOf(graph, '/src')).toEqual([['a.ts', 'b.ts'], ['d.ts']]);
});

/**
 * The client's layers, as docs/architecture.md draws them: a module by its path under src (a
 * folder covers what is in it, the longest match wins). negotiate/'s probe vocabulary sits with
 * the dialects that implement probes; running them (negotiate/index.ts) is above. telemetry's
 * description of an operation is the client's.
 */
const LAYERS: Record<string, number> = {
  'index.ts': 6,
  'public-types.ts': 6,
  'multi/': 6,
  'pins.ts': 6,
  'client.ts': 5,
  'call-deadline.ts': 5,
  'tool-recovery.ts': 5,
  'stale-results.ts': 5,
  'options.ts': 5,
  'connection.ts': 5,
  'credentials-required.ts': 5,
  'apps.ts': 5,
  'guarded-verdicts.ts': 5,
  'stdio-server.ts': 5,
  'events.ts': 5,
  'tool-stream.ts': 5,
  'auth/': 5,
  'telemetry/operation.ts': 5,
  'call.ts': 4,
  'redeem.ts': 4,
  'handles.ts': 4,
  'negotiate/index.ts': 4,
  'handlers/': 4,
  'results.ts': 3,
  'cache.ts': 3,
  'server-capabilities.ts': 3,
  'dialects/': 2,
  'channels/': 2,
  'negotiate/': 2,
  'transport/': 1,
  'errors.ts': 0,
  'option-keys.ts': 0,
  'wire-codes.ts': 0,
  'telemetry/': 0,
  'deadline.ts': 0,
  'roster.ts': 0,
  'id-table.ts': 0,
  'outcome.ts': 0,
  'jsonrpc.ts': 0,
  'wire-size.ts': 0,
  'types.ts': 0,
  'digest.ts': 0,
  'schema.ts': 0,
};

function layerOf(path: string): number | undefined {
  let best: string | undefined;
  for (const key of Object.keys(LAYERS)) {
    const fits = key.endsWith('/') ? path.startsWith(key) : path === key;
    if (fits && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : LAYERS[best];
}

/** Every import of a module of a higher layer, and every module the map does not place. */
function upwardImports(graph: Map<string, string[]>, src: string): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const from = relative(src, file);
    const layer = layerOf(from);
    if (layer === undefined) {
      found.push(`${from} has no layer`);
      continue;
    }
    for (const target of targets) {
      const to = relative(src, target);
      if (!graph.has(target)) continue; // package.json, say: not a module of the layers
      const above = layerOf(to);
      if (above === undefined || above > layer)
        found.push(`${from} (L${layer}) -> ${to} (L${above})`);
    }
  }
  return found.sort();
}

test('no module of the client imports one of a higher layer', async () => {
  const src = join(ROOT, 'packages', 'client', 'src');
  const graph = await graphOf(src);
  expect(upwardImports(graph, src)).toEqual([]);
});

test('the check finds an upward import, and a module with no layer', () => {
  const graph = new Map([
    ['/src/errors.ts', ['/src/call.ts']],
    ['/src/call.ts', ['/src/errors.ts']],
    ['/src/stray.ts', []],
  ]);
  expect(upwardImports(graph, '/src')).toEqual([
    'errors.ts (L0) -> call.ts (L4)',
    'stray.ts has no layer',
  ]);
});
