/**
 * A real Redis for the tests: Debian's `redis-server` in a child process on a free loopback port,
 * with nothing saved to disk. `.ci/run` installs it when it is missing. `pause()` and `resume()`
 * stop and continue the process (SIGSTOP, SIGCONT): a Redis that holds connections but answers
 * nothing, the slow case; `close()` takes it away, the down case.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

export interface RedisServer extends AsyncDisposable {
  url: string;
  port: number;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

const STARTUP_MS = 10_000;

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    await ready(child);
  } catch (error) {
    await stop(child);
    throw error;
  }
  const close = () => stop(child);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A port nothing listens on right now (the kernel's choice, released at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Waits for Redis to say it accepts connections; keeps draining its output afterwards. */
function ready(child: ChildProcess): Promise<void> {
  const stdout = child.stdout!;
  stdout.setEncoding('utf8');
  child.stderr!.resume();
  return new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => fail(`not ready after ${STARTUP_MS} ms`), STARTUP_MS);
    const onData = (chunk: string) => {
      seen += chunk;
      if (!seen.includes('Ready to accept connections')) return;
      done();
      resolve();
    };
    const onError = (error: NodeJS.ErrnoException) =>
      fail(
        error.code === 'ENOENT'
          ? "not found: install Debian's redis-server (.ci/run does when it is missing)"
          : error.message,
      );
    const onExit = (code: number | null) => fail(`exited with ${String(code)}`);
    const fail = (why: string) => {
      done();
      reject(new Error(`redis-server ${why}; output: ${seen.slice(-2_000)}`));
    };
    const done = () => {
      clearTimeout(timer);
      stdout.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      stdout.resume();
    };
    stdout.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A paused Redis cannot act on SIGTERM until it runs again.
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
