/**
 * One scenario alone, for a profiler: a client's calls at a concurrency for a few seconds, with
 * nothing else in the process. The server is started here as a child and killed at the end.
 *
 * Usage: node --cpu-prof --cpu-prof-dir=<dir> --conditions=@toolwire/source bench/profile.ts
 *          [client-id=toolwire] [json|sse|notify|stream200|stream16k] [concurrency=32] [seconds=5]
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Driver } from './drivers/driver.ts';
import { load } from './measure.ts';
import { ENTRIES } from './modules.ts';
import { GRPC_PATH, NOTIFY_COUNT, STREAM_SIZES, TOOLS } from './protocol.ts';

const [id = 'toolwire', kind = 'json', concurrencyText = '32', secondsText = '5'] =
  process.argv.slice(2);
const entry = ENTRIES.find((client) => client.id === id);
if (!entry) throw new Error(`unknown client ${id}`);
const server = spawn(process.execPath, [fileURLToPath(new URL('./server.ts', import.meta.url))], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
try {
  const [port, grpcPort] = await new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start')), 10_000);
    server.stdout.setEncoding('utf8').once('data', (line: string) => {
      clearTimeout(timer);
      resolve(/PORT (\d+) GRPC (\d+)/.exec(line)?.slice(1) ?? []);
    });
  });
  const { default: driver } = (await import(`./drivers/${entry.driver}.ts`)) as {
    default: Driver;
  };
  const session = await driver.connect(
    entry.path === GRPC_PATH
      ? `grpc://127.0.0.1:${grpcPort}`
      : `http://127.0.0.1:${port}${entry.path}`,
  );
  const seconds = Math.min(Number(secondsText), 60);
  // stream200 / stream16k: the SSE parse scenarios, one call reading ~1 MB of events.
  const stream = STREAM_SIZES.find(({ s }) => kind === `stream${s === 200 ? '200' : '16k'}`);
  const tool = stream
    ? TOOLS.stream
    : kind === 'sse'
      ? TOOLS.sse
      : kind === 'notify'
        ? TOOLS.notify
        : TOOLS.json;
  const args = stream ? { k: stream.k, s: stream.s } : kind === 'notify' ? { n: NOTIFY_COUNT } : {};
  const figures = await load(
    session,
    tool,
    Number(concurrencyText),
    { warmup: stream ? 3 : 1000, count: 1_000_000, maxMs: seconds * 1000 },
    args,
  );
  await session.close();
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} finally {
  server.kill('SIGTERM');
}
