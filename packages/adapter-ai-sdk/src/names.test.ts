import { expect, test } from 'vitest';
import { assignNames, isSafeName } from './names.ts';

test('names providers accept are kept as they are, with the prefix', () => {
  const table = assignNames(['echo', 'get-weather', 'Add_2'], 'ref_');
  expect(['echo', 'get-weather', 'Add_2'].map((name) => table.modelName(name))).toEqual([
    'ref_echo',
    'ref_get-weather',
    'ref_Add_2',
  ]);
  expect(table.serverName('ref_echo')).toBe('echo');
});

test('other names are repaired, and a repaired name never takes the place of a safe one', () => {
  // "files.read" would become "files_read", which the server also offers.
  const table = assignNames(['files.read', 'files_read', 'café'], '');
  expect(table.modelName('files_read')).toBe('files_read');
  const repaired = table.modelName('files.read')!;
  expect(repaired).not.toBe('files_read');
  expect(repaired.startsWith('files_read_')).toBe(true);
  expect(table.modelName('café')).toBe('caf_');
  for (const name of ['files.read', 'files_read', 'café']) {
    const modelName = table.modelName(name)!;
    expect(isSafeName(modelName)).toBe(true);
    expect(table.serverName(modelName)).toBe(name);
  }
});

test('long names are cut to 64 characters and stay distinct and stable', () => {
  const long = 'x'.repeat(70);
  const names = [`${long}_one`, `${long}_two`];
  const table = assignNames(names, '');
  const [one, two] = names.map((name) => table.modelName(name)!);
  expect(one).toHaveLength(64);
  expect(two).toHaveLength(64);
  expect(one).not.toBe(two);
  // The same list gives the same names: a model's earlier turns keep their meaning.
  expect(assignNames(names, '').modelName(names[0]!)).toBe(one);
});

test('an empty name or a prefix alone still gives a usable name', () => {
  const table = assignNames(['', '..'], '');
  expect(isSafeName(table.modelName('')!)).toBe(true);
  expect(isSafeName(table.modelName('..')!)).toBe(true);
  expect(table.modelName('')).not.toBe(table.modelName('..'));
});
