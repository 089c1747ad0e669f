/**
 * The client's public face: every value it exports is named in the README or docs/, so nothing public is
 * undocumented; the entry names each value and takes its types from one module that names each
 * type, so the face is read in two short files and nothing internal slips in through a wildcard.
 */
import { glob, readFile } from 'node:fs/promises';
import * as client from '@toolwire/client';
import { expect, test } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const INDEX = new URL('../../packages/client/src/index.ts', import.meta.url);
const TYPES = new URL('../../packages/client/src/public-types.ts', import.meta.url);

/** The README and the pages of docs/: where a user reads about the public face. */
async function documentation(): Promise<string> {
  const pages = ['README.md'];
  for await (const page of glob('docs/*.md', { cwd: ROOT })) pages.push(page);
  expect(pages.length).toBeGreaterThan(5);
  const texts = await Promise.all(pages.map((page) => readFile(new URL(page, ROOT), 'utf8')));
  return texts.join('\n');
}

test('every value @toolwire/client exports is named in the README or docs/', async () => {
  const readme = await documentation();
  const names = Object.keys(client);
  expect(names.length).toBeGreaterThan(40);
  // In a table, the prose or a snippet: anywhere a reader meets it as a word of its own.
  const undocumented = names.filter((name) => !new RegExp(`\\b${name}\\b`).test(readme));
  expect(undocumented).toEqual([]);
});

test('the entry names every value; its one wildcard is the module that names every type', async () => {
  const index = await readFile(INDEX, 'utf8');
  const wildcards = index.match(/^export (type )?\*.*$/gm);
  expect(wildcards).toEqual([`export type * from './public-types.ts';`]);
  const types = await readFile(TYPES, 'utf8');
  const exports = types.match(/^export .*$/gm) ?? [];
  expect(exports.length).toBeGreaterThan(15);
  // Types only, each by name: no value and no wildcard comes in through it.
  expect(exports.filter((line) => !line.startsWith('export type {'))).toEqual([]);
});
