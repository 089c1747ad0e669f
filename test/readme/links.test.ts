/**
 * The documentation's own links: every relative link of the READMEs and of docs/ names a file
 * that exists, and every `#anchor` a heading of the page it points into, so moving a section
 * cannot leave a reader at a dead end.
 */
import { existsSync } from 'node:fs';
import { glob, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const pages: string[] = [];
for await (const page of glob(
  ['README.md', 'packages/*/README.md', 'bench/README.md', 'docs/*.md'],
  {
    cwd: ROOT,
  },
)) {
  pages.push(page);
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replaceAll(' ', '-');
}

async function anchorsOf(file: string): Promise<Set<string>> {
  const text = await readFile(file, 'utf8');
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6} (.*)$/.exec(line)?.[1];
    if (heading !== undefined) anchors.add(anchorOf(heading));
  }
  return anchors;
}

/** The relative links of a page outside its code blocks: `[text](target)`. */
async function linksOf(file: string): Promise<string[]> {
  const text = (await readFile(file, 'utf8')).replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

test('the anchors are made as GitHub makes them', () => {
  expect(anchorOf('LangChain: `@toolwire/langchain`')).toBe('langchain-toolwirelangchain');
  expect(anchorOf('Local servers (stdio)')).toBe('local-servers-stdio');
  expect(anchorOf('MCP 2026-07-28 on the wire')).toBe('mcp-2026-07-28-on-the-wire');
  expect(anchorOf('Elicitation, sampling and roots')).toBe('elicitation-sampling-and-roots');
});

test('the documentation is found', () => {
  expect(pages).toContain('README.md');
  expect(pages.filter((page) => page.startsWith('docs/')).length).toBeGreaterThan(10);
});

test.each(pages)('every link of %s leads somewhere', async (page) => {
  const from = join(ROOT, page);
  const dead: string[] = [];
  for (const link of await linksOf(from)) {
    const [path = '', anchor] = link.split('#');
    const target = path === '' ? from : join(dirname(from), decodeURIComponent(path));
    if (!existsSync(target)) {
      dead.push(`${link}: no ${relative(ROOT, target)}`);
      continue;
    }
    if (anchor !== undefined && target.endsWith('.md') && !(await anchorsOf(target)).has(anchor)) {
      dead.push(`${link}: no heading #${anchor} in ${relative(ROOT, target)}`);
    }
  }
  expect(dead).toEqual([]);
});
