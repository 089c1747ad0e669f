/**
 * The reference "everything" server (`@modelcontextprotocol/server-everything`) as shipped: its
 * own `streamableHttp` entry point (express, one SDK 1.x transport per session, an in-memory
 * event store for resumability) in a child process. The entry point listens on `PORT` on every
 * interface; the `loopback-listen.ts` preload moves it to a free port on 127.0.0.1 and reports
 * the port. The child gets a small fixed environment, which its `get-env` tool returns.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';

export interface EverythingServer extends AsyncDisposable {
  url: string;
  /** The environment the server process runs with. */
  env: Record<string, string>;
  close(): Promise<void>;
}

const STARTUP_MS = 15_000;

export async function startEverythingServer(): Promise<EverythingServer> {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const preload = new URL('./loopback-listen.ts', import.meta.url).href;
  const env = { TOOLWIRE_INTEROP: 'server-everything' };
  const child = spawn(process.execPath, ['--import', preload, entry, 'streamableHttp'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let port: number;
  try {
    port = await listeningPort(child);
  } catch (error) {
    await stop(child);
    throw error;
  }
  const close = () => stop(child);
  return { url: `http://127.0.0.1:${port}/mcp`, env, close, [Symbol.asyncDispose]: close };
}

/** Reads stderr until the preload reports the port; keeps draining it afterwards. */
function listeningPort(child: ChildProcess): Promise<number> {
  const stderr = child.stderr!;
  stderr.setEncoding('utf8');
  return new Promise<number>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => fail(`no port after ${STARTUP_MS} ms`), STARTUP_MS);
    const onData = (chunk: string) => {
      seen += chunk;
      const match = /^LISTENING (\d+)$/m.exec(seen);
      if (!match) return;
      done();
      resolve(Number(match[1]));
    };
    const onExit = (code: number | null) => fail(`exited with ${String(code)}`);
    const fail = (why: string) => {
      done();
      reject(new Error(`server-everything ${why}; stderr: ${seen.slice(-2_000)}`));
    };
    const done = () => {
      clearTimeout(timer);
      stderr.off('data', onData);
      child.off('exit', onExit);
      // Keep reading, or a chatty child would block on a full pipe.
      stderr.resume();
    };
    stderr.on('data', onData);
    child.once('exit', onExit);
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
