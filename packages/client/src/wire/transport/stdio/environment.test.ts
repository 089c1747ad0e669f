import { expect, test } from 'vitest';
import { INHERITED_ENV, serverEnvironment } from './environment.ts';

test('the child gets the allowed variables and what the caller passes, nothing else', () => {
  const parent = { PATH: '/bin', HOME: '/home/ada', AWS_SECRET_ACCESS_KEY: 'secret', LANG: 'C' };
  const env = serverEnvironment({ API_URL: 'http://x', PATH: '/opt/bin' }, parent);
  expect(env).toEqual({ PATH: '/opt/bin', HOME: '/home/ada', LANG: 'C', API_URL: 'http://x' });
  expect(Object.keys(env)).not.toContain('AWS_SECRET_ACCESS_KEY');
});

test('exported shell functions are not passed on; undefined values are left out', () => {
  const env = serverEnvironment({ GONE: undefined }, { PATH: '/bin', SHELL: '() { :; }; echo' });
  expect(env).toEqual({ PATH: '/bin' });
});

test('passing the whole environment hands on all of it', () => {
  const parent = { PATH: '/bin', CUSTOM: '1' };
  expect(serverEnvironment(parent, parent)).toEqual(parent);
});

test('the allow-list names what a program needs to run', () => {
  if (process.platform === 'win32') expect(INHERITED_ENV).toContain('SYSTEMROOT');
  else
    expect(INHERITED_ENV).toEqual(
      expect.arrayContaining(['PATH', 'HOME', 'USER', 'SHELL', 'TERM', 'LANG']),
    );
});
