/**
 * The system services some tests need, found or missing in one place: a Redis (`REDIS_URL`, else
 * Debian's `redis-server` on PATH, started by the test) and tmux on PATH. A test that needs one
 * calls `needs()`: where it is missing the test is skipped with a note that names what is missing
 * and how to get it, and the missing-services reporter (vitest.config.ts) sums those notes up in
 * one line at the end of the run. Under CI (`CI` set) nothing may be skipped that way: the test
 * fails with the same words instead, and `.ci/run` installs what is missing before it runs.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeEach, type TestContext } from 'vitest';
import { type RedisServer, startRedisServer } from './redis-server.ts';

/** A service that is there: `start()` brings up what the test uses. */
export interface Found<T> {
  ok: true;
  start(): Promise<T>;
}
/** A service that is not: `reason` says what is missing and how to get it. */
export interface Missing {
  ok: false;
  reason: string;
}
export type Service<T> = Found<T> | Missing;

/** A Redis to talk to: the tests' own `redis-server`, or the one `REDIS_URL` names. */
export interface Redis extends AsyncDisposable {
  url: string;
  /** Closes what the test started; leaves the Redis of `REDIS_URL` running. */
  close(): Promise<void>;
}

/** Whether this run is CI's, which must run every test: `CI=true`, as CI services set it. */
export const underCi = !['', '0', 'false'].includes((process.env['CI'] ?? '').toLowerCase());

/** `name`'s path when an executable of that name is on PATH. */
export function onPath(name: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

export function service(name: 'redis'): Service<Redis>;
export function service(name: 'redis-server'): Service<RedisServer>;
export function service(name: 'tmux'): Service<void>;
export function service(name: 'redis' | 'redis-server' | 'tmux'): Service<unknown> {
  switch (name) {
    case 'redis': {
      const url = process.env['REDIS_URL'];
      if (url) return { ok: true, start: async () => external(url) };
      if (onPath('redis-server')) return { ok: true, start: startRedisServer };
      return missing('redis-server', 'apt-get install redis-server, or set REDIS_URL');
    }
    case 'redis-server':
      // Tests that pause or stop Redis, or need it empty, start their own: REDIS_URL won't do.
      if (onPath('redis-server')) return { ok: true, start: startRedisServer };
      return missing('redis-server', 'apt-get install redis-server');
    case 'tmux':
      if (onPath('tmux')) return { ok: true, start: async () => {} };
      return missing('tmux', 'apt-get install tmux');
  }
}

/** The note missing-services-reporter.ts reads: `<what> not found: <how to get it>`. */
function missing(what: string, how: string): Missing {
  return { ok: false, reason: `${what} not found: ${how}` };
}

function external(url: string): Redis {
  const close = async () => {};
  return { url, close, [Symbol.asyncDispose]: close };
}

/**
 * For every test of the file or `describe` it is called in: skips the test with the reason of each
 * missing service, or fails it under CI. Hooks that start a service check `ok` themselves.
 */
export function needs(...services: Service<unknown>[]): void {
  if (services.every((s) => s.ok)) return;
  beforeEach((ctx) => {
    for (const s of services) check(ctx, s);
  });
}

/** In one test: the service when it is there; otherwise skips the test, or fails it under CI. */
export function neededBy<T>(ctx: TestContext, s: Service<T>): Found<T> {
  check(ctx, s);
  return s as Found<T>;
}

function check(ctx: TestContext, s: Service<unknown>): void {
  if (s.ok) return;
  if (underCi) throw new Error(`${s.reason}. CI runs every test: .ci/run installs what is missing`);
  ctx.skip(s.reason);
}
