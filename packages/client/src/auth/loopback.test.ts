import { expect, test } from 'vitest';
import { loopbackAuthorization } from './loopback.ts';

test('the listener is bound before open(), ignores other states, and closes after the redirect', async () => {
  const login = loopbackAuthorization({
    open: async () => {
      // A stray request (another tab, a stale redirect) cannot end the wait.
      const stray = await fetch(`${redirectUri}?code=x&state=other`);
      expect(stray.status).toBe(404);
      await stray.text();
      const page = await fetch(`${redirectUri}?code=good&state=s1`);
      expect(page.status).toBe(200);
      await page.text();
    },
  });
  const redirectUri = await login.redirectUri();
  expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  // The port is kept: the redirect URI a registration was made for stays valid.
  expect(await login.redirectUri()).toBe(redirectUri);
  const url = new URL('https://auth.test/authorize?state=s1');
  const redirect = await login.authorize(url, { signal: new AbortController().signal });
  expect(redirect.searchParams.get('code')).toBe('good');
  await expect(fetch(redirectUri)).rejects.toThrow();
});

test('aborting the wait rejects with the reason and closes the listener', async () => {
  const controller = new AbortController();
  const login = loopbackAuthorization({ open: () => controller.abort(new Error('gave up')) });
  const redirectUri = await login.redirectUri();
  const wait = login.authorize(new URL('https://auth.test/a?state=s'), {
    signal: controller.signal,
  });
  await expect(wait).rejects.toThrow('gave up');
  await expect(fetch(redirectUri)).rejects.toThrow();
});

test('open must be a function', () => {
  expect(() => loopbackAuthorization({} as never)).toThrow(TypeError);
});
