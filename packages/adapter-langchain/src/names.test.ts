import { expect, test } from 'vitest';
import { assignNames, safeName } from './names.ts';

test('a name providers accept is kept as it is', () => {
  expect(safeName('get_weather-2')).toBe('get_weather-2');
});

test('characters providers refuse become underscores', () => {
  expect(safeName('files.read/v2')).toBe('files_read_v2');
});

test('a name over 64 characters is cut and keeps a hash of the whole, so two stay apart', () => {
  const a = safeName(`${'x'.repeat(70)}a`);
  const b = safeName(`${'x'.repeat(70)}b`);
  expect(a).toMatch(/^[a-zA-Z0-9_-]{64}$/);
  expect(b).toMatch(/^[a-zA-Z0-9_-]{64}$/);
  expect(a).not.toBe(b);
});

test('the prefix comes first, and names that collide once made safe get a suffix', () => {
  const names = assignNames(['a.b', 'a_b', 'c'], { prefix: 'srv_', safe: true });
  expect([...names.entries()]).toEqual([
    ['a.b', 'srv_a_b'],
    ['a_b', 'srv_a_b_2'],
    ['c', 'srv_c'],
  ]);
});

test('with safe names off, names are only prefixed', () => {
  const names = assignNames(['files.read'], { prefix: 'x:', safe: false });
  expect(names.get('files.read')).toBe('x:files.read');
});
