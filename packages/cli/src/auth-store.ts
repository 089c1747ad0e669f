/**
 * Where `toolwire login` keeps what OAuth gave it (tokens, client registrations, discovered
 * metadata), for every later command: one JSON file in the user's config directory, created
 * readable by its owner only (0600, in a 0700 directory) and replaced whole on each change, so a
 * reader never sees half a file. A lock file lets two toolwire processes refresh a token once.
 */
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JsonObject } from '@toolwire/client';
import envPaths from 'env-paths';
import { UsageError } from './exit-codes.ts';

type Awaitable<T> = T | Promise<T>;

/** The shape of the client's AuthStore, which this file store is. */
export interface FileAuthStore {
  readonly file: string;
  get(key: string): Promise<JsonObject | undefined>;
  set(key: string, value: JsonObject): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every key, for `logout` to find what belongs to one server. */
  keys(): Promise<string[]>;
  lock(
    key: string,
    options: { ttlMs: number; signal: AbortSignal },
  ): Promise<() => Awaitable<void>>;
}

/** `$TOOLWIRE_CONFIG_DIR`, else the platform's config directory (`~/.config/toolwire` on Linux). */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env['TOOLWIRE_CONFIG_DIR'];
  if (chosen) return chosen;
  return homedir() ? envPaths('toolwire', { suffix: '' }).config : join(process.cwd(), '.toolwire');
}

export function fileAuthStore(file = join(configDir(), 'auth.json')): FileAuthStore {
  // Changes from this process, one at a time, each on the file as the last one left it.
  let changes: Promise<unknown> = Promise.resolve();
  const read = async (): Promise<Record<string, JsonObject>> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    try {
      return JSON.parse(text) as Record<string, JsonObject>;
    } catch {
      throw new UsageError(`${file} is not JSON; remove it and log in again`);
    }
  };
  const change = (apply: (data: Record<string, JsonObject>) => void): Promise<void> => {
    const next = changes.then(async () => {
      const data = await read();
      apply(data);
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, file);
    });
    changes = next.catch(() => undefined);
    return next;
  };
  return {
    file,
    get: async (key) => (await read())[key],
    set: (key, value) =>
      change((data) => {
        data[key] = value;
      }),
    delete: (key) =>
      change((data) => {
        delete data[key];
      }),
    keys: async () => Object.keys(await read()),
    async lock(_key, { ttlMs, signal }) {
      // One lock for the file: refreshes are rare and short.
      const lockFile = `${file}.lock`;
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      for (;;) {
        try {
          await (await open(lockFile, 'wx', 0o600)).close();
          return () => rm(lockFile, { force: true });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        // A holder that died leaves its lock behind: past its time, it is taken over.
        const held = await stat(lockFile).catch(() => undefined);
        if (held && Date.now() - held.mtimeMs > ttlMs) await rm(lockFile, { force: true });
        else await sleep(50, undefined, { signal });
      }
    },
  };
}
