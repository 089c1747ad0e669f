/**
 * Media saved to files, since a terminal cannot show them: in `--out DIR`, or a new directory
 * under the system's temp directory. The names are ours (the command's word, a count, an
 * extension from a fixed list), never the server's, so nothing lands outside the directory.
 * A file already there is never written through: without `--force` it is refused, and with it
 * replaced (see `replace`).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../exit-codes.ts';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/webm': 'webm',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'application/octet-stream': 'bin',
  'text/plain': 'txt',
};

export interface MediaOptions {
  /** `--force`: replace a file of the same name in `--out DIR`. */
  force?: boolean | undefined;
}

export class MediaFiles {
  readonly #chosen: string | undefined;
  readonly #stem: string;
  readonly #force: boolean;
  #dir: Promise<string> | undefined;
  #count = 0;
  readonly saved: string[] = [];

  constructor(dir: string | undefined, stem: string, options: MediaOptions = {}) {
    this.#chosen = dir;
    this.#stem = stem.replace(/[^\w.-]+/g, '_').slice(0, 60) || 'content';
    this.#force = options.force === true;
  }

  async save(base64: string, mimeType: string | undefined): Promise<string> {
    this.#dir ??= this.#chosen
      ? mkdir(this.#chosen, { recursive: true }).then(() => this.#chosen!)
      : mkdtemp(join(tmpdir(), 'toolwire-'));
    const dir = await this.#dir;
    const extension = EXTENSIONS[(mimeType ?? '').split(';')[0]!.trim()] ?? 'bin';
    const path = join(dir, `${this.#stem}-${++this.#count}.${extension}`);
    await writeOwnFile(path, Buffer.from(base64, 'base64'), this.#force);
    this.saved.push(path);
    return path;
  }
}

/**
 * Writes `bytes` at `path`, never through what is there: a new file, or with `force` one renamed
 * over the old entry. Skill files (render/skill-files.ts) are written this way too.
 */
export async function writeOwnFile(path: string, bytes: Uint8Array, force: boolean): Promise<void> {
  if (force) await replace(path, bytes);
  else await create(path, bytes);
}

/** Writes a new file. `wx` is O_CREAT|O_EXCL: it fails on any entry there, a symlink included. */
async function create(path: string, bytes: Uint8Array): Promise<void> {
  try {
    await writeFile(path, bytes, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new UsageError(
      `${path} is already there, and --out never overwrites a file: --force replaces it`,
      { cause: error },
    );
  }
}

/**
 * `--force`: a new file renamed over the old entry. A rename replaces the entry itself, so a
 * symlink there is replaced rather than followed, and a hard link's other names keep their
 * contents: nothing outside the directory is written, whatever was put in it.
 */
async function replace(path: string, bytes: Uint8Array): Promise<void> {
  const fresh = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(fresh, bytes, { flag: 'wx' });
  try {
    await rename(fresh, path);
  } catch (error) {
    await rm(fresh, { force: true });
    throw error;
  }
}
