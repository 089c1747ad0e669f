/**
 * One client, one round, in its own process: connect figures, load at concurrency 1 and 32
 * (JSON, SSE, SSE with notifications before the result), SSE parse rate, heap growth, handles
 * left after close. Prints one JSON line.
 *
 * Usage: node --expose-gc --conditions=@toolwire/source bench/worker.ts <client-id> <port> <grpc-port>
 *          [--quick]
 */
import { request } from 'node:http';
import type { Driver } from './drivers/driver.ts';
import { heapGrowth, type LoadFigures, load, parseRate } from './measure.ts';
import { ENTRIES } from './modules.ts';
import {
  GRPC_PATH,
  NOTIFY_COUNT,
  STATS_PATH,
  STREAM_SIZES,
  TCP_CONNECTION,
  TOOLS,
} from './protocol.ts';
import { median } from './stats.ts';

export interface WorkerResult {
  client: string;
  connectMs: number;
  /** Requests the server saw from connect() until 20 ms after it resolved (TCP connections apart). */
  connectRequests: number;
  connectBreakdown: Record<string, number>;
  load: Record<string, LoadFigures>;
  parseMBps: Record<string, number>;
  heapPer1000: number;
  handlesLeft: string[];
}

const [id, portText, grpcPortText] = process.argv.slice(2);
const quick = process.argv.includes('--quick');
const entry = ENTRIES.find((client) => client.id === id);
if (!entry || !portText || !grpcPortText) {
  throw new Error('usage: worker.ts <client-id> <port> <grpc-port> [--quick]');
}
const origin = `http://127.0.0.1:${portText}`;
const url =
  entry.path === GRPC_PATH ? `grpc://127.0.0.1:${grpcPortText}` : `${origin}${entry.path}`;

const SIZES = quick
  ? { connects: 3, load: { warmup: 100, count: 600, maxMs: 400 }, parse: 3, heap: 1000 }
  : { connects: 5, load: { warmup: 300, count: 5000, maxMs: 1000 }, parse: 7, heap: 5000 };
/**
 * A local pipe answers 10-100k calls a second: 5,000 calls would be a window of 50 ms, most of it
 * before V8 has optimised the client's path and within one collection's pause. stdio clients (the
 * floor with them) are warmed up for longer and measured over the same time as the others.
 */
const STDIO_LOAD = quick
  ? { warmup: 2000, count: 50_000, maxMs: 400 }
  : { warmup: 10_000, count: 200_000, maxMs: 1000 };

/** Read-and-reset of the server's counters, on a connection of its own (no pooled socket left). */
function serverCounts(): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${STATS_PATH}`, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve(JSON.parse(body) as Record<string, number>));
    });
    req.on('error', reject);
    req.end();
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Everything this process holds before any client exists: the baseline for "handles left".
const resourcesBefore = process.getActiveResourcesInfo();
const { default: driver } = (await import(`./drivers/${entry.driver}.ts`)) as { default: Driver };

const connectTimes: number[] = [];
let breakdown: Record<string, number> = {};
// An adapter's connect is its client's plus a tool listing: only its calls are measured. A stdio
// client's connect starts a process the HTTP server does not see: only its calls are measured.
const callsOnly = entry.adapter === true || entry.stdio === true;
// Another transport beside its floor: its connect and JSON calls; SSE, parse and heap growth are
// HTTP's (or the same code's) and measured there.
const jsonOnly = callsOnly || entry.jsonOnly === true;
for (let i = 0; i < (callsOnly ? 0 : SIZES.connects); i++) {
  await serverCounts();
  const t0 = performance.now();
  const session = await driver.connect(url);
  connectTimes.push(performance.now() - t0);
  await pause(20);
  breakdown = await serverCounts();
  // The read itself came on a connection of its own (agent: false): not the client's.
  const tcp = (breakdown[TCP_CONNECTION] ?? 1) - 1;
  delete breakdown[TCP_CONNECTION];
  if (tcp > 0) breakdown[TCP_CONNECTION] = tcp;
  await session.close();
}

// Heap growth first, on its own client: the load scenarios leave garbage (latency arrays, GC
// profiles, megabyte strings) whose collection would show up as a negative growth.
let heapPer1000 = Number.NaN;
if (!jsonOnly) {
  const heapSession = await driver.connect(url);
  heapPer1000 = await heapGrowth(heapSession, TOOLS.json, SIZES.heap);
  await heapSession.close();
}

const session = await driver.connect(url);
const figures: Record<string, LoadFigures> = {};
// An adapter adds the same work to every call, whatever the answer's shape: JSON is enough.
// stdio answers are lines, gRPC answers messages, never SSE.
for (const [kind, tool] of jsonOnly
  ? ([['JSON', TOOLS.json]] as const)
  : ([
      ['JSON', TOOLS.json],
      ['SSE', TOOLS.sse],
    ] as const)) {
  for (const concurrency of [1, 32]) {
    const sizes = entry.stdio ? STDIO_LOAD : SIZES.load;
    figures[`${kind} c${concurrency}`] = await load(session, tool, concurrency, sizes);
  }
}
const parseMBps: Record<string, number> = {};
if (!jsonOnly) {
  // Notifications before the result: each client decodes and dispatches them the way it does
  // with a log message nobody listens to.
  for (const concurrency of [1, 32]) {
    figures[`notify c${concurrency}`] = await load(session, TOOLS.notify, concurrency, SIZES.load, {
      n: NOTIFY_COUNT,
    });
  }
  for (const { label, k, s } of STREAM_SIZES) {
    parseMBps[label] = await parseRate(session, TOOLS.stream, k, s, SIZES.parse);
  }
}
await session.close();

// Give closed sockets and timers a moment, then list what outlived every client.
await pause(100);
const left = [...process.getActiveResourcesInfo()];
for (const kind of resourcesBefore) {
  const at = left.indexOf(kind);
  if (at >= 0) left.splice(at, 1);
}

const result: WorkerResult = {
  client: entry.id,
  connectMs: connectTimes.length ? median(connectTimes) : Number.NaN,
  connectRequests: Object.entries(breakdown)
    .filter(([key]) => key !== TCP_CONNECTION)
    .reduce((sum, [, n]) => sum + n, 0),
  connectBreakdown: breakdown,
  load: figures,
  parseMBps,
  heapPer1000,
  handlesLeft: left,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
// A client that leaks a handle must not keep this process (and the run) alive.
process.exit(0);
