import { expect, test } from 'vitest';
import { providerToolNames } from './names.ts';

const SAFE = /^[a-zA-Z0-9_-]{1,64}$/;

test('names providers accept are kept as they are, with the prefix, both ways', () => {
  const names = providerToolNames(['echo', 'get-weather', 'Add_2'], { prefix: 'ref_' });
  expect(['echo', 'get-weather', 'Add_2'].map((name) => names.modelName(name))).toEqual([
    'ref_echo',
    'ref_get-weather',
    'ref_Add_2',
  ]);
  expect(names.serverName('ref_echo')).toBe('echo');
  expect(names.serverName('echo')).toBeUndefined();
});

test('a repaired name never takes the place of a safe one, whichever comes first', () => {
  for (const order of [
    ['files.read', 'files_read', 'café'],
    ['files_read', 'café', 'files.read'],
  ]) {
    const names = providerToolNames(order);
    expect(names.modelName('files_read')).toBe('files_read');
    expect(names.modelName('files.read')).toMatch(/^files_read_[a-z0-9]+$/);
    expect(names.modelName('café')).toBe('caf_');
    for (const name of order) {
      expect(names.modelName(name)).toMatch(SAFE);
      expect(names.serverName(names.modelName(name)!)).toBe(name);
    }
  }
});

test('long names are cut to 64 characters, stay distinct, and are the same on every listing', () => {
  const long = 'x'.repeat(70);
  const list = [`${long}_one`, `${long}_two`];
  const [one, two] = list.map((name) => providerToolNames(list).modelName(name)!);
  expect(one).toHaveLength(64);
  expect(two).toHaveLength(64);
  expect(one).not.toBe(two);
  expect(providerToolNames(list).modelName(list[0]!)).toBe(one);
});

test('punctuation alone still gives a name, and never the safe name it resembles', () => {
  const names = providerToolNames(['!!!', '___', '__proto__']);
  expect(names.modelName('___')).toBe('___');
  expect(names.modelName('__proto__')).toBe('__proto__');
  expect(names.modelName('!!!')).toMatch(/^____[a-z0-9]+$/);
  expect(names.serverName('constructor')).toBeUndefined();
});

test('a prefix providers refuse is repaired with each name; the names stay apart', () => {
  const list = ['!!!', '___', '__proto__'];
  const names = providerToolNames(list, { prefix: 'my server.' });
  expect(names.modelName('__proto__')).toBe('my_server___proto__');
  const all = list.map((name) => names.modelName(name)!);
  for (const name of all) expect(name).toMatch(/^my_server_[a-zA-Z0-9_-]+$/);
  expect(new Set(all).size).toBe(3);
  expect(all.map((name) => names.serverName(name))).toEqual(list);
});

test('a tool listed twice gets one name', () => {
  const names = providerToolNames(['a.b', 'a.b']);
  expect(names.modelName('a.b')).toBe('a_b');
  expect(names.serverName('a_b')).toBe('a.b');
});
