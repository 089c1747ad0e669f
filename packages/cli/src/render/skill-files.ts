/**
 * A skill's verified files written under `DIR/<server>/<skill path>/`: the server's identity in
 * the path (a skill is (server, uri)), every segment checked to be a plain name, every directory
 * made here or found to be a real directory (never a symlink followed), every file written by
 * writeOwnFile (never through what is there, replaced only with --force). The server chooses the
 * skill's path and its files' names: nothing it says can place a file outside DIR.
 */
import { lstat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../exit-codes.ts';
import { writeOwnFile } from './media-files.ts';

/** A server's name as one directory name: the config's name or the URL's host, made plain. */
export function serverDirectory(name: string): string {
  const plain = name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 100);
  return plain === '' ? 'server' : plain;
}

/** The segments of a server-chosen path, each a plain name; anything else is refused. */
export function plainSegments(path: string, what: string): string[] {
  const segments = path.split('/');
  for (const segment of segments) {
    if (
      segment === '' ||
      segment === '.' ||
      segment === '..' ||
      segment.length > 255 ||
      // Controls, a backslash, a colon: not a name on every system, or a way to climb on one.
      /[\p{Cc}\\:]/u.test(segment)
    ) {
      throw new UsageError(`the server's ${what} ${JSON.stringify(path)} is not a plain path`);
    }
  }
  return segments;
}

/** `dir`'s own directory `name`, made if missing; a symlink or a file there is refused. */
async function ownDirectory(dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  try {
    await mkdir(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = await lstat(path);
  if (!stat.isDirectory()) {
    throw new UsageError(`${path} is there and is not a directory of its own (a symlink?)`);
  }
  return path;
}

/** The directories of `segments` under `root`, each made or checked. */
export async function directoriesUnder(root: string, segments: readonly string[]): Promise<string> {
  let dir = root;
  for (const segment of segments) dir = await ownDirectory(dir, segment);
  return dir;
}

/** Writes each file (its path relative to `dir`, already plain) under `dir`. */
export async function writeSkillFiles(
  dir: string,
  files: ReadonlyArray<{ path: string; bytes: Uint8Array }>,
  force: boolean,
): Promise<string[]> {
  const written: string[] = [];
  for (const file of files) {
    const segments = plainSegments(file.path, 'file path');
    const parent = await directoriesUnder(dir, segments.slice(0, -1));
    const path = join(parent, segments.at(-1)!);
    await writeOwnFile(path, file.bytes, force);
    written.push(path);
  }
  return written;
}
