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
 * The client's layers are its folders, read from the block of docs/architecture.md that starts
 * with `layers:`: one line per layer, highest first. A module imports only modules of lower
 * layers, or of its own layer in the same folder or in a folder named after a `>` to its right
 * (`client/ > auth/ apps/`: the client uses auth and apps, which know neither it nor each other).
 * A folder covers what is in it; the longest match wins.
 */
export interface Layers {
  /** The layer and group of a path under src, or undefined for a path no line names. */
  place(path: string): { layer: number; group: number; folder: string } | undefined;
}

export function layersOf(block: string): Layers {
  const entries: { folder: string; layer: number; group: number }[] = [];
  const lines = block.trim().split('\n');
  lines.forEach((line, index) => {
    const layer = lines.length - 1 - index;
    const groups = line.replace(/^L\d+\s+/, '').split('>');
    groups.forEach((group, rank) => {
      for (const folder of group.trim().split(/\s+/)) entries.push({ folder, layer, group: rank });
    });
  });
  return {
    place(path) {
      let best: (typeof entries)[number] | undefined;
      for (const entry of entries) {
        const fits = entry.folder.endsWith('/')
          ? path.startsWith(entry.folder)
          : path === entry.folder;
        if (fits && (best === undefined || entry.folder.length > best.folder.length)) best = entry;
      }
      return best;
    },
  };
}

async function documentedLayers(): Promise<Layers> {
  const doc = await readFile(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const block = /```\nlayers:\n([\s\S]*?)```/.exec(doc)?.[1];
  expect(block, 'docs/architecture.md has a `layers:` block').toBeDefined();
  return layersOf(block!);
}

/** Every import the layers forbid, and every module no layer places. */
function forbiddenImports(graph: Map<string, string[]>, src: string, layers: Layers): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const from = relative(src, file);
    const here = layers.place(from);
    if (here === undefined) {
      found.push(`${from} has no layer`);
      continue;
    }
    for (const target of targets) {
      if (!graph.has(target)) continue; // package.json, say: not a module of the layers
      const to = relative(src, target);
      const there = layers.place(to);
      const allowed =
        there !== undefined &&
        (there.layer < here.layer ||
          (there.layer === here.layer &&
            (there.folder === here.folder || there.group > here.group)));
      if (!allowed) {
        const where = there ? `L${there.layer}` : 'no layer';
        found.push(
          `${from} (L${here.layer} ${here.folder}) -> ${to} (${where} ${there?.folder ?? ''})`.trim(),
        );
      }
    }
  }
  return found.sort();
}

test('no module of the client imports against its layers', async () => {
  const src = join(ROOT, 'packages', 'client', 'src');
  const graph = await graphOf(src);
  expect(forbiddenImports(graph, src, await documentedLayers())).toEqual([]);
});

test('only the public face stands at the root of packages/client/src: the rest is in its layer', async () => {
  const src = join(ROOT, 'packages', 'client', 'src');
  const files = (await readdir(src, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.test.ts'))
    .map((entry) => entry.name);
  expect(files.sort()).toEqual(['index.ts', 'public-types.ts']);
});

test('the check finds an upward import, one across a layer against its order, and a module with no layer', () => {
  const layers = layersOf(
    'L2  client/ > auth/ apps/\nL1  wire/channels/ > wire/transport/\nL0  core/\n',
  );
  const graph = new Map([
    ['/src/core/errors.ts', ['/src/client/client.ts']],
    ['/src/client/client.ts', ['/src/auth/gate.ts', '/src/core/errors.ts']],
    ['/src/auth/gate.ts', ['/src/apps/apps.ts', '/src/client/client.ts']],
    ['/src/apps/apps.ts', []],
    ['/src/wire/transport/http.ts', ['/src/wire/channels/stdio.ts']],
    ['/src/wire/channels/stdio.ts', ['/src/wire/transport/http.ts']],
    ['/src/stray.ts', []],
  ]);
  expect(forbiddenImports(graph, '/src', layers)).toEqual([
    'auth/gate.ts (L2 auth/) -> apps/apps.ts (L2 apps/)',
    'auth/gate.ts (L2 auth/) -> client/client.ts (L2 client/)',
    'core/errors.ts (L0 core/) -> client/client.ts (L2 client/)',
    'stray.ts has no layer',
    'wire/transport/http.ts (L1 wire/transport/) -> wire/channels/stdio.ts (L1 wire/channels/)',
  ]);
});
