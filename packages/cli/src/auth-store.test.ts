import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDir, fileAuthStore } from './auth-store.ts';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolwire-auth-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the file auth store', () => {
  it('keeps values across stores on the same file, in a file only its owner can read', async () => {
    const file = join(dir, 'config', 'auth.json');
    const store = fileAuthStore(file);
    await store.set('tokens a b', { accessToken: 'secret' });
    await store.set('client a', { clientId: 'c1' });
    expect(((await stat(file)).mode & 0o777).toString(8)).toBe('600');
    expect(((await stat(join(dir, 'config'))).mode & 0o777).toString(8)).toBe('700');
    const again = fileAuthStore(file);
    expect(await again.get('tokens a b')).toEqual({ accessToken: 'secret' });
    expect(await again.keys()).toEqual(['tokens a b', 'client a']);
    await again.delete('tokens a b');
    expect(await store.get('tokens a b')).toBeUndefined();
    expect(await store.get('client a')).toEqual({ clientId: 'c1' });
  });

  it('loses no change when several are made at once', async () => {
    const store = fileAuthStore(join(dir, 'auth.json'));
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`k${i}`, { i })));
    expect((await store.keys()).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `k${i}`).sort(),
    );
  });

  it('says so when the file is not JSON', async () => {
    const file = join(dir, 'auth.json');
    await writeFile(file, 'not json');
    await expect(fileAuthStore(file).get('x')).rejects.toThrow(`${file} is not JSON`);
  });

  it('lets one holder at a time take the lock, and takes over one left past its time', async () => {
    const store = fileAuthStore(join(dir, 'auth.json'));
    const signal = new AbortController().signal;
    const release = await store.lock('tokens a b', { ttlMs: 60_000, signal });
    let second = false;
    const waiting = store.lock('tokens a b', { ttlMs: 60_000, signal }).then((free) => {
      second = true;
      return free;
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(second).toBe(false);
    await release();
    await (await waiting)();
    expect(second).toBe(true);

    // A lock whose holder died: taken over once older than ttlMs.
    await writeFile(join(dir, 'auth.json.lock'), '');
    const taken = await store.lock('k', { ttlMs: 0, signal });
    await taken();
    await expect(readFile(join(dir, 'auth.json.lock'))).rejects.toThrow();
  });

  it('lives in TOOLWIRE_CONFIG_DIR, else the platform config directory', () => {
    expect(configDir({ TOOLWIRE_CONFIG_DIR: '/somewhere' })).toBe('/somewhere');
    expect(configDir({})).toMatch(/toolwire$/);
  });
});
