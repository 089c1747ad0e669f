/**
 * The import graph of each library package's sources has no cycle, counting type-only imports
 * too: a cycle is a layer that knows the one above it, and the next change pays for it. Dynamic
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
