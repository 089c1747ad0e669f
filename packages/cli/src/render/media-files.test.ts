import { lstat, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../exit-codes.ts';
import { MediaFiles } from './media-files.ts';

const bytes = (text: string) => Buffer.from(text).toString('base64');

let dir = '';
let outside = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolwire-out-'));
  outside = await mkdtemp(join(tmpdir(), 'toolwire-outside-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('media saved to --out', () => {
  it('never overwrites a file already there, and says --force does', async () => {
    const path = join(dir, 'shot-1.png');
    await writeFile(path, 'mine');
    const error = await new MediaFiles(dir, 'shot').save(bytes('new'), 'image/png').catch((e) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      `${path} is already there, and --out never overwrites a file: --force replaces it`,
    );
    expect(await readFile(path, 'utf8')).toBe('mine');
  });

  it('never writes through a symlink, even one to nowhere', async () => {
    const target = join(outside, 'victim');
    await writeFile(target, 'precious');
    await symlink(target, join(dir, 'shot-1.png'));
    await symlink(join(outside, 'missing'), join(dir, 'clip-1.png'));
    await expect(new MediaFiles(dir, 'shot').save(bytes('evil'), 'image/png')).rejects.toThrow(
      /--force replaces it/,
    );
    await expect(new MediaFiles(dir, 'clip').save(bytes('evil'), 'image/png')).rejects.toThrow(
      UsageError,
    );
    expect(await readFile(target, 'utf8')).toBe('precious');
    await expect(lstat(join(outside, 'missing'))).rejects.toThrow(/ENOENT/);
  });

  it('with --force replaces the file, and a symlink itself rather than what it points at', async () => {
    const target = join(outside, 'victim');
    await writeFile(target, 'precious');
    await writeFile(join(dir, 'shot-1.png'), 'old');
    await symlink(target, join(dir, 'shot-2.png'));
    const files = new MediaFiles(dir, 'shot', { force: true });
    expect(await files.save(bytes('one'), 'image/png')).toBe(join(dir, 'shot-1.png'));
    expect(await files.save(bytes('two'), 'image/png')).toBe(join(dir, 'shot-2.png'));
    expect(await readFile(join(dir, 'shot-1.png'), 'utf8')).toBe('one');
    expect((await lstat(join(dir, 'shot-2.png'))).isSymbolicLink()).toBe(false);
    expect(await readFile(join(dir, 'shot-2.png'), 'utf8')).toBe('two');
    expect(await readFile(target, 'utf8')).toBe('precious');
  });

  it('names files after the command word, never a path, inside the directory', async () => {
    const files = new MediaFiles(dir, '../../etc/passwd');
    const path = await files.save(bytes('x'), '../../evil');
    expect(path).toBe(join(dir, '.._.._etc_passwd-1.bin'));
    await expect(readlink(path)).rejects.toThrow(/EINVAL/);
  });
});
