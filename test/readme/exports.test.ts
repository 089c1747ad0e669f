/**
 * The client's public face: every value it exports is named in the README, so nothing public is
 * undocumented, and its entry names each export (no `export *`), so the face is read in one file.
 */
import { readFile } from 'node:fs/promises';
import * as client from '@toolwire/client';
import { expect, test } from 'vitest';

const README = new URL('../../README.md', import.meta.url);
const INDEX = new URL('../../packages/client/src/index.ts', import.meta.url);

test('every value @toolwire/client exports is named in the README', async () => {
  const readme = await readFile(README, 'utf8');
  const names = Object.keys(client);
  expect(names.length).toBeGreaterThan(40);
  // In a table, the prose or a snippet: anywhere a reader meets it as a word of its own.
  const undocumented = names.filter((name) => !new RegExp(`\\b${name}\\b`).test(readme));
  expect(undocumented).toEqual([]);
});

test('the entry names every export: no export *', async () => {
  const index = await readFile(INDEX, 'utf8');
  expect(index).not.toMatch(/^export (type )?\*/m);
});
