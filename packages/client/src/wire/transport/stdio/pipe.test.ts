/** The channel over real child processes: matching, crashes, restarts, aborts. */
import { afterEach, expect, test } from 'vitest';
import { ServerExitedError } from '../../../core/errors.ts';
import type { Incoming, JsonRpcRequest, RequestId } from '../../../core/jsonrpc.ts';
import { serverEnvironment } from './environment.ts';
import { ABANDONED_KEPT, MAX_RESTARTS, StdioPipe } from './pipe.ts';

/**
 * A server that answers `echo` at once, `wait` never, `crash` by exiting with code 9 (after a line
 * on stderr), `big` with a line over the limit, and sends a notification before each answer.
 */
const SERVER = `
const rl = require('node:readline').createInterface({ input: process.stdin });
const out = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  out({ jsonrpc: '2.0', method: 'notifications/message', params: { about: m.id } });
  if (m.method === 'echo') out({ jsonrpc: '2.0', id: m.id, result: m.params });
  if (m.method === 'big') out({ jsonrpc: '2.0', id: m.id, result: { x: 'y'.repeat(5000) } });
  if (m.method === 'crash') { process.stderr.write('fatal: out of coffee\\n'); process.exit(9); }
});
`;

const channels: StdioPipe[] = [];
afterEach(async () => {
  await Promise.all(channels.splice(0).map((channel) => channel.close()));
});

function open(script = SERVER) {
  const seen = {
    incoming: [] as Incoming[],
    warnings: [] as Error[],
    exits: [] as Error[],
    abandoned: [] as RequestId[],
  };
  const channel = new StdioPipe(
    { command: process.execPath, args: ['-e', script], env: serverEnvironment() },
    { label: 'stdio:test', maxMessageBytes: 1000, graceMs: 500 },
    {
      incoming: (incoming) => seen.incoming.push(incoming),
      warning: (error) => seen.warnings.push(error),
      stderr: () => {},
      exited: (error) => seen.exits.push(error),
      abandoned: (id) => seen.abandoned.push(id),
    },
  );
  channels.push(channel);
  return { channel, seen };
}

const call = (id: number, method: string, params = {}): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});
const forever = () => new AbortController().signal;

test('requests are matched to their responses; what else the server says is handed on', async () => {
  const { channel, seen } = open();
  const [a, b] = await Promise.all([
    channel.request(call(1, 'echo', { n: 1 }), forever()),
    channel.request(call(2, 'echo', { n: 2 }), forever()),
  ]);
  expect(a).toEqual({ jsonrpc: '2.0', id: 1, result: { n: 1 } });
  expect(b).toEqual({ jsonrpc: '2.0', id: 2, result: { n: 2 } });
  expect(seen.incoming.map((incoming) => incoming.kind)).toEqual(['notification', 'notification']);
});

test('a crash fails every waiting request at once with the exit, and the next request restarts the server', async () => {
  const { channel, seen } = open();
  await channel.request(call(1, 'echo'), forever());
  const first = channel.pid;
  const waiting = channel.request(call(2, 'wait'), forever()).catch((e: unknown) => e);
  const crashing = channel.request(call(3, 'crash'), forever()).catch((e: unknown) => e);
  for (const error of await Promise.all([waiting, crashing])) {
    expect(error).toBeInstanceOf(ServerExitedError);
    expect(error).toMatchObject({
      exitCode: 9,
      requestSent: true,
      stderr: ['fatal: out of coffee'],
    });
  }
  expect(seen.exits).toHaveLength(1);
  expect(await channel.request(call(4, 'echo', { again: true }), forever())).toMatchObject({
    result: { again: true },
  });
  expect(channel.generation).toBe(2);
  expect(channel.pid).not.toBe(first);
});

test('restarts are bounded: a server that dies before answering anything is given up on', async () => {
  const { channel } = open(`process.stderr.write('cannot start\\n'); process.exit(1);`);
  for (let i = 0; i < MAX_RESTARTS; i++) {
    await expect(channel.request(call(i, 'echo'), forever())).rejects.toBeInstanceOf(
      ServerExitedError,
    );
  }
  const error = await channel.request(call(9, 'echo'), forever()).catch((e: unknown) => e);
  expect(error).toMatchObject({ exitCode: 1, retryable: false, requestSent: false });
  expect(channel.generation).toBe(MAX_RESTARTS);
});

test('an aborted request rejects with the reason and is reported abandoned; its late answer raises no warning', async () => {
  const { channel, seen } = open(`
    const rl = require('node:readline').createInterface({ input: process.stdin });
    rl.on('line', (line) => {
      const m = JSON.parse(line);
      setTimeout(() => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }) + '\\n'), 100);
    });
  `);
  // The process runs already: the request is on the pipe when it is given up on.
  await channel.request(call(0, 'slow'), forever());
  const controller = new AbortController();
  const pending = channel.request(call(1, 'slow'), controller.signal);
  controller.abort(new Error('changed my mind'));
  await expect(pending).rejects.toThrow('changed my mind');
  expect(seen.abandoned).toEqual([1]);
  await channel.request(call(2, 'slow'), forever());
  expect(seen.warnings).toEqual([]);
  expect(seen.abandoned).toEqual([1]);
});

test('only the latest given-up requests are remembered: a server may never answer them', async () => {
  // Holds every request until \`release\`, then answers them all, late.
  const { channel, seen } = open(`
    const rl = require('node:readline').createInterface({ input: process.stdin });
    const held = [];
    rl.on('line', (line) => {
      const m = JSON.parse(line);
      if (m.method !== 'release') return held.push(m.id);
      for (const id of [...held, m.id]) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result: {} }) + '\\n');
    });
  `);
  await channel.start(forever());
  for (let id = 1; id <= ABANDONED_KEPT + 1; id++) {
    const controller = new AbortController();
    const pending = channel.request(call(id, 'slow'), controller.signal).catch(() => {});
    controller.abort(new Error('given up'));
    await pending;
  }
  expect(seen.abandoned).toHaveLength(ABANDONED_KEPT + 1);
  await channel.request(call(0, 'release'), forever());
  // The oldest was forgotten; every later one was still known.
  expect(seen.warnings).toHaveLength(1);
  expect(seen.warnings[0]!.message).toContain('response to id 1, which no call is waiting for');
});

test('an answer over the limit fails its own request and no other', async () => {
  const { channel } = open();
  const [big, small] = await Promise.allSettled([
    channel.request(call(1, 'big'), forever()),
    channel.request(call(2, 'echo'), forever()),
  ]);
  expect(big).toMatchObject({ status: 'rejected', reason: { code: 'RESPONSE_TOO_LARGE' } });
  expect(small).toMatchObject({ status: 'fulfilled' });
});

test('close() fails what still waits and ends the process', async () => {
  const { channel } = open();
  const waiting = channel.request(call(1, 'wait'), forever()).catch((e: unknown) => e);
  await new Promise((resolve) => setTimeout(resolve, 50));
  await channel.close();
  expect(await waiting).toMatchObject({ code: 'CLIENT_CLOSED' });
  expect(channel.pid).toBeUndefined();
});
