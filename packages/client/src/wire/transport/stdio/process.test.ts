/**
 * The server process, with real child processes: small Node programs that behave as servers do,
 * well and badly.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { afterEach, expect, test, vi } from 'vitest';
import { ServerExitedError, TransportError } from '../../../core/errors.ts';
import type { Incoming, RequestId } from '../../../core/jsonrpc.ts';
import { serverEnvironment } from './environment.ts';
import { type ProcessEvents, ServerProcess } from './process.ts';

/** A server that answers every request with its own params, one line each. */
const ECHO = `
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: m.params ?? {} }) + '\\n');
});
`;

const started: ServerProcess[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

interface Seen {
  messages: Incoming[];
  warnings: Error[];
  stderr: string[];
  exits: ServerExitedError[];
  oversized: { id: RequestId | undefined; error: Error }[];
}

async function start(
  script: string,
  options: { graceMs?: number; maxMessageBytes?: number; env?: Record<string, string> } = {},
) {
  const seen: Seen = { messages: [], warnings: [], stderr: [], exits: [], oversized: [] };
  const events: ProcessEvents = {
    message: (incoming) => seen.messages.push(incoming),
    warning: (error) => seen.warnings.push(error),
    stderr: (line) => seen.stderr.push(line),
    exit: (error) => seen.exits.push(error),
    oversized: (id, error) => seen.oversized.push({ id, error }),
  };
  const server = await ServerProcess.start(
    { command: process.execPath, args: ['-e', script], env: serverEnvironment(options.env) },
    {
      label: 'stdio:test',
      maxMessageBytes: options.maxMessageBytes ?? 1024 * 1024,
      graceMs: options.graceMs ?? 2_000,
    },
    events,
  );
  started.push(server);
  return { server, seen };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Whether a process runs (a zombie waiting for its parent to reap it does not count). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

test('messages go out as lines and come back as routed messages', async () => {
  const { server, seen } = await start(ECHO);
  await server.send({ jsonrpc: '2.0', id: 1, method: 'echo', params: { text: 'héllo\nworld' } });
  await until(() => seen.messages.length === 1);
  expect(seen.messages[0]).toEqual({
    kind: 'response',
    message: { jsonrpc: '2.0', id: 1, result: { text: 'héllo\nworld' } },
  });
});

test("a turn's messages go out in a few writes, the first at once, and all arrive in order", async () => {
  const { server, seen } = await start(ECHO);
  const writes = vi.spyOn(Socket.prototype, 'write');
  try {
    // What 20 calls resumed by one batch of answers write, each in its own microtask.
    await Promise.all(
      Array.from({ length: 20 }, (_, id) =>
        Promise.resolve().then(() =>
          server.write({ jsonrpc: '2.0', id, method: 'echo', params: { text: 'x'.repeat(40) } }),
        ),
      ),
    );
    // 102 bytes a message. The first goes alone, the next 11 once they pass a kilobyte; the one
    // after that starts a batch again, alone, and the last 7 go together at the end of the turn.
    expect(writes.mock.calls.map(([text]) => String(text).split('\n').length - 1)).toEqual([
      1, 11, 1, 7,
    ]);
  } finally {
    writes.mockRestore();
  }
  await until(() => seen.messages.length === 20);
  expect(seen.messages.map((incoming) => (incoming.message as { id: number }).id)).toEqual(
    Array.from({ length: 20 }, (_, id) => id),
  );
});

test('a line that is not JSON-RPC is a warning; \\r\\n lines are read; stderr is never protocol', async () => {
  const { seen } = await start(`
    process.stderr.write('{"jsonrpc":"2.0","id":9,"result":{}}\\n');
    process.stdout.write('Starting server...\\n{"jsonrpc":"2.0","method":"notifications/message","params":{}}\\r\\n');
  `);
  await until(
    () => seen.messages.length === 1 && seen.warnings.length === 1 && seen.stderr.length === 1,
  );
  expect(seen.messages[0]).toMatchObject({ kind: 'notification' });
  expect(seen.warnings[0]).toMatchObject({
    code: 'MALFORMED_MESSAGE',
    bodyExcerpt: 'Starting server...',
  });
  expect(seen.stderr).toEqual(['{"jsonrpc":"2.0","id":9,"result":{}}']);
});

test('a line over the limit is dropped and named by the id it answered', async () => {
  const { seen } = await start(
    `process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 5, result: { big: 'x'.repeat(200000) } }) + '\\n{"jsonrpc":"2.0","id":6,"result":{}}\\n');`,
    { maxMessageBytes: 100_000 },
  );
  await until(() => seen.oversized.length === 1 && seen.messages.length === 1);
  expect(seen.oversized[0]?.id).toBe(5);
  expect(seen.oversized[0]?.error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', limit: 100_000 });
  expect(seen.messages[0]).toMatchObject({ message: { id: 6 } });
});

test('a crash is reported once, with the exit code and the last stderr lines', async () => {
  const { server, seen } = await start(`
    process.stderr.write('loading\\nError: the database is locked\\n');
    setTimeout(() => process.exit(3), 50);
  `);
  await until(() => seen.exits.length === 1);
  const [exit] = seen.exits;
  expect(exit).toBeInstanceOf(ServerExitedError);
  expect(exit).toMatchObject({ exitCode: 3, signal: null, requestSent: true, retryable: true });
  expect(exit?.stderr).toEqual(['loading', 'Error: the database is locked']);
  expect(exit?.message).toContain('exited with code 3 (stderr: Error: the database is locked)');
  // A message that can no longer be read fails at once, and was not sent.
  const late = await server
    .send({ jsonrpc: '2.0', method: 'ping' })
    .catch((error: unknown) => error);
  expect(late).toBeInstanceOf(ServerExitedError);
  expect(late).toMatchObject({ requestSent: false });
});

test('a write to a full pipe waits for room, and fails at once when the reader dies', async () => {
  // A server that never reads: the pipe fills, and the next write must wait.
  const { server } = await start(`process.stdin.pause(); setInterval(() => {}, 1000);`, {
    graceMs: 200,
  });
  const big = { jsonrpc: '2.0' as const, method: 'fill', params: { data: 'x'.repeat(64 * 1024) } };
  let waiting: Promise<unknown> | undefined;
  for (let i = 0; i < 100 && !waiting; i++) {
    const sent = server.send(big);
    const settled = await Promise.race([
      sent.then(() => true),
      new Promise((r) => setTimeout(r, 50, false)),
    ]);
    if (!settled) waiting = sent.catch((error: unknown) => error);
  }
  expect(waiting).toBeDefined();
  process.kill(server.pid, 'SIGKILL');
  expect(await waiting).toBeInstanceOf(TransportError);
});

test('a server that closes its stdin makes writes fail instead of hanging', async () => {
  const { server } = await start(`require('node:fs').closeSync(0); setInterval(() => {}, 1000);`, {
    graceMs: 200,
  });
  let failure: unknown;
  for (let i = 0; i < 50 && failure === undefined; i++) {
    failure = await server
      .send({ jsonrpc: '2.0', method: 'x', params: { data: 'y'.repeat(64 * 1024) } })
      .then(() => new Promise((resolve) => setTimeout(resolve, 10)))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
  }
  expect(failure).toBeInstanceOf(TransportError);
  expect(failure).toMatchObject({ requestSent: false });
});

test('close() ends stdin and a server that honours it exits by itself', async () => {
  const { server, seen } = await start(ECHO);
  await server.close();
  expect(running(server.pid)).toBe(false);
  expect(seen.exits).toEqual([]);
});

test('close() escalates to SIGTERM, then SIGKILL, for a server that ignores its input ending', async () => {
  const { server } = await start(
    `process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); process.stderr.write('ready\\n');`,
    { graceMs: 300 },
  );
  await until(() => server.stderr.length === 1);
  await server.close();
  expect(running(server.pid)).toBe(false);
});

test('close() ends what the server started, too (a grandchild holding the pipes)', async () => {
  const { server, seen } = await start(
    `
    const child = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });
    process.stderr.write('grandchild ' + child.pid + '\\n');
    process.stdin.on('end', () => process.exit(0));
    process.stdin.resume();
  `,
    { graceMs: 300 },
  );
  await until(() => seen.stderr.length === 1);
  const grandchild = Number(seen.stderr[0]?.split(' ')[1]);
  expect(running(grandchild)).toBe(true);
  await server.close();
  expect(running(server.pid)).toBe(false);
  expect(running(grandchild)).toBe(false);
});

test('a program that cannot be started is a TransportError that says so and is not retried', async () => {
  const error = await ServerProcess.start(
    { command: 'toolwire-no-such-program', args: [], env: serverEnvironment() },
    { label: 'stdio:toolwire-no-such-program', maxMessageBytes: 1024, graceMs: 100 },
    { message() {}, warning() {}, stderr() {}, exit() {}, oversized() {} },
  ).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TransportError);
  expect(error).toMatchObject({ retryable: false, requestSent: false });
  expect((error as Error).message).toContain('ENOENT');
});

test("the child sees the safe environment, not the parent's secrets", async () => {
  process.env['TOOLWIRE_TEST_SECRET'] = 'do-not-pass';
  try {
    const { seen } = await start(
      `process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'env', params: process.env }) + '\\n');`,
      {
        env: { GIVEN: 'yes' },
      },
    );
    await until(() => seen.messages.length === 1);
    const env = (seen.messages[0]!.message as { params: Record<string, string> }).params;
    expect(env['GIVEN']).toBe('yes');
    expect(env['PATH']).toBe(process.env['PATH']);
    expect(env['TOOLWIRE_TEST_SECRET']).toBeUndefined();
  } finally {
    delete process.env['TOOLWIRE_TEST_SECRET'];
  }
});

test.skipIf(process.platform === 'win32')(
  'the server dies with the parent, even one that ignores SIGTERM and its input ending',
  async () => {
    // A parent process that starts a stubborn server, prints its pid and exits without closing it.
    const parent = `
    import { ServerProcess } from ${JSON.stringify(new URL('./process.ts', import.meta.url).href)};
    import { serverEnvironment } from ${JSON.stringify(new URL('./environment.ts', import.meta.url).href)};
    const server = await ServerProcess.start(
      { command: process.execPath, args: ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], env: serverEnvironment() },
      { label: 'stdio:stubborn', maxMessageBytes: 1024, graceMs: 100 },
      { message() {}, warning() {}, stderr() {}, exit() {}, oversized() {} },
    );
    process.stdout.write(server.pid + '\\n');
    setTimeout(() => process.exit(0), 100);
  `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', parent], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    await until(() => !running(pid));
  },
);
