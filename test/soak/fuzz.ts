/**
 * The fuzz: many short-lived clients, each against its own case of the hostile server
 * (hostile.ts), each doing what an application does first: connect, list the tools, call one,
 * list resources, ping, close. The figures:
 *
 * - crashes: uncaught exceptions and unhandled rejections in the client's process
 * - hangs: an operation still unsettled `HANG_GRACE_MS` past the longest wait its deadlines allow
 *   (one deadline for each; `callTool` may look the tool up twice and list again, under deadlines
 *   of their own, so it gets five)
 * - untyped: a rejection, or a `warning` event, that is not a toolwire error
 * - internal: an InternalError (typed, but the client's own bug wrapped at its boundary)
 * - leaks: a request carrying the client's credential that reached another origin, or the
 *   credential in an error's message
 * - storms: a case that sent more requests than its deadlines allow at the client's floor pause
 *   (a server asking for `retry: 0`, or for a wait too long for a timer, must not cause one)
 * - handles after close(): sockets and timers left once every client is closed
 */
import { createMcpClient, type DialectChoice, isMcpError } from '@toolwire/client';
import { BODY_LIMIT, EVENT_LIMIT, startHostileServer } from './hostile.ts';
import { pick, sequence } from './seeded.ts';
import { handlesAbove, settledHandles, timedLoop, within } from './watch.ts';

export interface FuzzOptions {
  cases: number;
  /** The first case's number (to run one case of a longer run again). */
  first?: number;
  concurrency: number;
  seed: number;
  /** Each operation's deadline. */
  timeoutMs: number;
}

export interface FuzzFigures {
  cases: number;
  seconds: number;
  operations: number;
  succeeded: number;
  failed: number;
  crashes: number;
  hangs: number;
  untyped: number;
  internal: number;
  leaks: number;
  /** Cases that sent more requests than their deadlines and the resume floor allow. */
  storms: number;
  /** The most requests one case sent. */
  maxRequests: number;
  handlesAfterClose: number;
  /** How late the client's event loop ran during the cases (see watch.ts). */
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
  errors: Record<string, number>;
  /** How often each production of the hostile grammar was served. */
  served: Record<string, number>;
  anomalies: string[];
}

const HANG_GRACE_MS = 5_000;
/** The clients' `retry.minDelayMs`: the floor under every pause, resumes included. */
const MIN_DELAY_MS = 10;
const DIALECTS: DialectChoice[] = ['auto', 'mcp', 'mcp-stateful', 'mcp-stateless'];

export async function runFuzz(options: FuzzOptions): Promise<FuzzFigures> {
  await using server = await startHostileServer(options.seed);
  const crashes: unknown[] = [];
  const onCrash = (reason: unknown) => crashes.push(reason);
  process.on('unhandledRejection', onCrash);
  process.on('uncaughtException', onCrash);
  const figures: FuzzFigures = {
    cases: options.cases,
    seconds: 0,
    operations: 0,
    succeeded: 0,
    failed: 0,
    crashes: 0,
    hangs: 0,
    untyped: 0,
    internal: 0,
    leaks: 0,
    storms: 0,
    maxRequests: 0,
    handlesAfterClose: 0,
    loopDelayMaxMs: 0,
    loopDelayP99Ms: 0,
    errors: {},
    served: {},
    anomalies: [],
  };
  const note = (text: string) => {
    if (figures.anomalies.length < 20) figures.anomalies.push(text);
  };
  try {
    const baseline = await settledHandles();
    const started = performance.now();
    const first = options.first ?? 0;
    let next = first;
    const timed = await timedLoop(() =>
      Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          while (next < first + options.cases)
            await runCase(next++, server, options, figures, note);
        }),
      ),
    );
    figures.loopDelayMaxMs = timed.loopDelayMaxMs;
    figures.loopDelayP99Ms = timed.loopDelayP99Ms;
    figures.seconds = (performance.now() - started) / 1000;
    figures.handlesAfterClose = await handlesAbove(baseline);
  } finally {
    process.off('unhandledRejection', onCrash);
    process.off('uncaughtException', onCrash);
  }
  figures.crashes = crashes.length;
  figures.served = Object.fromEntries([...server.served].sort(([a], [b]) => a.localeCompare(b)));
  for (const crash of crashes) note(`crash: ${describe(crash)}`);
  // Each operation may resume (or poll) once per floor pause within its deadlines, plus slack.
  const bound = 9 * (options.timeoutMs / MIN_DELAY_MS + 20);
  for (const [n, count] of server.requests) {
    figures.maxRequests = Math.max(figures.maxRequests, count);
    if (count > bound) {
      figures.storms += 1;
      note(`case ${n} sent ${count} requests`);
    }
  }
  for (const request of server.stolen) {
    if (request.authorization?.includes('fuzz-secret')) {
      figures.leaks += 1;
      note(`credential sent to another origin: ${request.path}`);
    }
  }
  return figures;
}

async function runCase(
  n: number,
  server: Awaited<ReturnType<typeof startHostileServer>>,
  options: FuzzOptions,
  figures: FuzzFigures,
  note: (text: string) => void,
): Promise<void> {
  const draw = sequence((options.seed * 7_919 + n) >>> 0);
  const secret = `fuzz-secret-${options.seed}-${n}`;
  const { timeoutMs } = options;
  const client = createMcpClient(server.urlOf(n), {
    headers: { authorization: `Bearer ${secret}` },
    dialect: pick(DIALECTS, draw()),
    listen: draw() < 0.5,
    timeoutMs,
    maxPages: 20,
    maxEventSize: EVENT_LIMIT,
    maxResponseBytes: BODY_LIMIT,
    reconnectAttempts: 2,
    retry: { retries: 2, minDelayMs: MIN_DELAY_MS, maxDelayMs: 50, maxRetryAfterMs: 200 },
  });
  const judge = (what: string, error: unknown) => {
    const text = error instanceof Error ? `${error.message} ${String(error.stack)}` : String(error);
    if (text.includes(secret)) {
      figures.leaks += 1;
      note(`case ${n}: the credential in a ${what}: ${describe(error)}`);
    }
    if (!isMcpError(error)) {
      figures.untyped += 1;
      note(`case ${n}: untyped ${what}: ${describe(error)}`);
    } else if (error.code === 'INTERNAL') {
      figures.internal += 1;
      const cause = error.cause instanceof Error ? error.cause.stack : String(error.cause);
      note(`case ${n}: internal ${what}: ${String(cause).split('\n').slice(0, 4).join(' | ')}`);
    }
  };
  client.on('warning', (warning) => judge('warning', warning));
  const operations: [string, number, () => Promise<unknown>][] = [
    ['connect', 1, () => client.connect()],
    ['listTools', 1, () => client.listTools()],
    ['callTool', 5, () => client.callTool(draw() < 0.5 ? 'x' : 'y', { a: 1 })],
    ['listResources', 1, () => client.listResources()],
    ['ping', 1, () => client.ping()],
  ];
  try {
    for (const [name, deadlines, operation] of operations) {
      figures.operations += 1;
      const settled = await within(operation(), deadlines * timeoutMs + HANG_GRACE_MS);
      if (settled.kind === 'hang') {
        figures.hangs += 1;
        note(`case ${n}: ${name} hung`);
        break;
      }
      if (settled.kind === 'ok') {
        figures.succeeded += 1;
        continue;
      }
      figures.failed += 1;
      const code = isMcpError(settled.error) ? settled.error.code : 'UNTYPED';
      figures.errors[code] = (figures.errors[code] ?? 0) + 1;
      judge(`${name} rejection`, settled.error);
      if (
        process.env['FUZZ_DEBUG'] &&
        isMcpError(settled.error) &&
        settled.error.code === 'TIMEOUT'
      )
        note(`case ${n}: ${name} ${settled.error.message}`);
    }
  } finally {
    const closed = await within(client.close(), timeoutMs + HANG_GRACE_MS);
    if (closed.kind === 'hang') {
      figures.hangs += 1;
      note(`case ${n}: close() hung`);
    } else if (closed.kind === 'error') judge('close() rejection', closed.error);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.slice(0, 300)}`;
  return String(error).slice(0, 300);
}
