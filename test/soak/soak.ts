/**
 * The soak: one client, many calls at a concurrency, through the fault proxy to the counting
 * server (both in a child process, see host.ts), in one era. Every call has a key of its own;
 * the server counts how often each key ran. The figures:
 *
 * - duplicates: a call that is not idempotent that ran more than once
 * - lost: an idempotent call that failed although no fault on its requests explains it (a
 *   terminal fault: malformed, huge, html, delay; or more faults than `retry.retries` allows)
 * - hangs: a call still unsettled `HANG_GRACE_MS` after its deadline
 * - untyped: a rejection that is not a toolwire error
 * - unhandled: unhandled rejections in the client's process during the run
 * - misrouted: a result that carried another call's key
 * - false "did not run": an error that says `mayHaveRun: false` for a call the server ran
 * - handles after close(): sockets and timers above the baseline once the client is closed
 *
 * A trusting caller is played too: an error that says `retryable` is sent again once, as is, so
 * a flag that lies shows as a duplicate.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createMcpClient, isMcpError, type McpClient, type McpError } from '@toolwire/client';
import type { FaultKind, FaultRecord, RequestClass } from './fault-proxy.ts';
import { FAULT_KINDS } from './fault-proxy.ts';
import { chance } from './seeded.ts';
import { handlesAbove, settledHandles, timedLoop, within } from './watch.ts';

export type Era = 'stateful' | 'stateless';

export interface SoakOptions {
  era: Era;
  calls: number;
  concurrency: number;
  seed: number;
  /** The chance that a request is given a fault. */
  rate: number;
  /** Each call's deadline. */
  timeoutMs: number;
  retry?: { minDelayMs?: number; maxDelayMs?: number; retries?: number };
  kinds?: readonly FaultKind[];
  /** Measure heap growth from a quarter of the calls to the last (needs --expose-gc). */
  heap?: boolean;
}

export interface KindFigures {
  injected: number;
  /** Calls that met the fault at least once. */
  calls: number;
  succeeded: number;
  failed: number;
  duplicates: number;
  lost: number;
}

export interface SoakFigures {
  era: Era;
  seed: number;
  calls: number;
  seconds: number;
  requests: number;
  faultsInjected: number;
  succeeded: number;
  failed: number;
  duplicates: number;
  lost: number;
  hangs: number;
  untyped: number;
  unhandled: number;
  misrouted: number;
  falseNotRun: number;
  resentOnTrust: number;
  handlesAfterClose: number;
  /** How late the client's event loop ran during the calls (see watch.ts). */
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
  /** How late the servers' process (proxy and counting server) ran, at most. */
  hostLoopDelayMaxMs: number;
  /**
   * Heap used (after GC) once every call is done, less what it was once the first quarter was
   * done, per 1,000 calls, with the client still open and no call in flight. The driver keeps
   * about 100 bytes per call, made before the first figure.
   */
  heapGrowthPer1000: number | undefined;
  errors: Record<string, number>;
  byKind: Record<FaultKind, KindFigures>;
  /** The first anomalies, described, to start a diagnosis from. */
  anomalies: string[];
}

/** How long after its deadline a call may take to settle before it counts as a hang. */
const HANG_GRACE_MS = 10_000;
/** Faults that end an idempotent call by design, whatever the retry policy. */
const TERMINAL: ReadonlySet<FaultKind> = new Set(['malformed', 'huge', 'html', 'delay']);
const HOST = fileURLToPath(new URL('./host.ts', import.meta.url));

/** One call, kept lean: the heap figure is taken while 20,000 of these are alive. */
interface CallRecord {
  key: string;
  idempotent: boolean;
  outcome: 'ok' | 'error' | 'hang';
  /** The error's code ('UNTYPED' for anything else). */
  code: string;
  /** What a failed call's error said, kept for idempotent calls and untyped errors only. */
  said: string;
  /** What the first error said, before any trusting resend. */
  firstSaidNotRun: boolean;
  resent: boolean;
}

export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
  const host = await startHost(options);
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const anomalies: string[] = [];
  const note = (text: string) => {
    if (anomalies.length < 20) anomalies.push(text);
  };
  try {
    const baseline = await settledHandles();
    const retries = options.retry?.retries ?? 3;
    const client = createMcpClient(options.era === 'stateful' ? host.url : host.modernUrl, {
      dialect: options.era === 'stateful' ? 'mcp-stateful' : 'mcp-stateless',
      protocolVersion: options.era === 'stateful' ? '2025-11-25' : '2026-07-28',
      timeoutMs: options.timeoutMs,
      retry: { ...options.retry, retries },
    });
    const started = performance.now();
    const {
      result: records,
      loopDelayMaxMs,
      loopDelayP99Ms,
    } = await timedLoop(() => drive(client, options, note));
    const seconds = (performance.now() - started) / 1000;
    const heapGrowthPer1000 =
      records.heapAtQuarter === undefined
        ? undefined
        : (((await heapAfterGc()) - records.heapAtQuarter) / (options.calls * 0.75)) * 1000;
    await client.close();
    const handlesAfterClose = await handlesAbove(baseline);
    const report = await host.report();
    const executions = new Map(report.executions);
    const faultsOf = new Map<string, FaultKind[]>();
    for (const fault of report.faults) {
      if (fault.key === undefined) continue;
      faultsOf.set(fault.key, [...(faultsOf.get(fault.key) ?? []), fault.kind]);
    }
    const figures: SoakFigures = {
      era: options.era,
      seed: options.seed,
      calls: options.calls,
      seconds,
      requests: report.requests.reduce((sum, [, count]) => sum + count, 0),
      faultsInjected: report.faults.length,
      succeeded: 0,
      failed: 0,
      duplicates: 0,
      lost: 0,
      hangs: 0,
      untyped: 0,
      unhandled: unhandled.length,
      misrouted: records.misrouted,
      falseNotRun: 0,
      resentOnTrust: 0,
      handlesAfterClose,
      loopDelayMaxMs,
      loopDelayP99Ms,
      hostLoopDelayMaxMs: report.loopDelayMaxMs,
      heapGrowthPer1000,
      errors: {},
      byKind: Object.fromEntries(
        FAULT_KINDS.map((kind) => [
          kind,
          { injected: 0, calls: 0, succeeded: 0, failed: 0, duplicates: 0, lost: 0 },
        ]),
      ) as Record<FaultKind, KindFigures>,
      anomalies,
    };
    for (const fault of report.faults) figures.byKind[fault.kind].injected += 1;
    for (const record of records.calls) {
      const ran = executions.get(record.key) ?? 0;
      const kinds = faultsOf.get(record.key) ?? [];
      const duplicate = !record.idempotent && ran > 1;
      const lost =
        record.idempotent &&
        record.outcome === 'error' &&
        !kinds.some((kind) => TERMINAL.has(kind)) &&
        kinds.length <= retries;
      if (record.resent) figures.resentOnTrust += 1;
      if (record.outcome === 'ok') figures.succeeded += 1;
      else if (record.outcome === 'hang') figures.hangs += 1;
      else {
        figures.failed += 1;
        figures.errors[record.code] = (figures.errors[record.code] ?? 0) + 1;
        if (record.code === 'UNTYPED') {
          figures.untyped += 1;
          note(`untyped error on ${record.key}: ${record.said}`);
        }
      }
      if (duplicate) {
        figures.duplicates += 1;
        note(`${record.key} ran ${ran} times; faults ${kinds.join(', ') || 'none'}`);
      }
      if (lost) {
        figures.lost += 1;
        note(`${record.key} lost: ${record.said}; faults ${kinds.join(', ') || 'none'}`);
      }
      if (record.firstSaidNotRun && !record.resent && ran > 0) {
        figures.falseNotRun += 1;
        note(`${record.key} said it did not run, ran ${ran}: ${record.code}`);
      }
      for (const kind of new Set(kinds)) {
        const byKind = figures.byKind[kind];
        byKind.calls += 1;
        if (record.outcome === 'ok') byKind.succeeded += 1;
        else byKind.failed += 1;
        if (duplicate) byKind.duplicates += 1;
        if (lost) byKind.lost += 1;
      }
    }
    for (const reason of unhandled) note(`unhandled rejection: ${describe(reason)}`);
    return figures;
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await host.stop();
  }
}

/** Runs every call, `concurrency` at a time, as a caller that trusts `retryable` would. */
async function drive(
  client: McpClient,
  options: SoakOptions,
  note: (text: string) => void,
): Promise<{ calls: CallRecord[]; misrouted: number; heapAtQuarter: number | undefined }> {
  // Every record exists before the first heap figure, so filling them in costs no heap.
  const calls: CallRecord[] = Array.from({ length: options.calls }, (_, index) => ({
    key: `${options.era}-${options.seed}-${index}`,
    idempotent: chance(options.seed, 'tool', index) < 0.5,
    outcome: 'ok',
    code: '',
    said: '',
    firstSaidNotRun: false,
    resent: false,
  }));
  let misrouted = 0;
  let heapAtQuarter: number | undefined;
  let next = 0;
  const one = async (index: number) => {
    const record = calls[index]!;
    const { key, idempotent } = record;
    const stream = chance(options.seed, 'stream', index) < 0.5;
    const attempt = () =>
      within(
        client.callTool(idempotent ? 'safe' : 'once', { key, stream }),
        options.timeoutMs + HANG_GRACE_MS,
      );
    let settled = await attempt();
    if (settled.kind === 'error') {
      record.firstSaidNotRun = isMcpError(settled.error) && !settled.error.mayHaveRun;
      if (isMcpError(settled.error) && settled.error.retryable) {
        record.resent = true;
        settled = await attempt();
      }
    }
    if (settled.kind === 'hang') record.outcome = 'hang';
    else if (settled.kind === 'error') {
      record.outcome = 'error';
      const typed = isMcpError(settled.error);
      record.code = typed ? (settled.error as McpError).code : 'UNTYPED';
      if (idempotent || !typed) record.said = describe(settled.error);
    } else {
      const text = (settled.value.content[0] as { text?: string } | undefined)?.text;
      if (text !== key) {
        misrouted += 1;
        note(`${key} got the result of ${String(text)}`);
      }
    }
  };
  const upTo = (end: number) =>
    Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (next < end) await one(next++);
      }),
    );
  // The heap is measured with no call in flight: after the first quarter, and at the end.
  await upTo(Math.floor(options.calls / 4));
  if (options.heap) heapAtQuarter = await heapAfterGc();
  await upTo(options.calls);
  return { calls, misrouted, heapAtQuarter };
}

function describe(error: unknown): string {
  if (isMcpError(error)) {
    const e = error as McpError;
    const cause = e.cause instanceof Error ? ` <- ${e.cause.name}: ${e.cause.message}` : '';
    return `${e.name} ${e.code} mayHaveRun=${e.mayHaveRun} retryable=${e.retryable}: ${e.message}${cause}`;
  }
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

interface Report {
  executions: [string, number][];
  faults: FaultRecord[];
  requests: [RequestClass, number][];
  loopDelayMaxMs: number;
}

interface Host {
  url: string;
  modernUrl: string;
  report(): Promise<Report>;
  stop(): Promise<void>;
}

async function startHost(options: SoakOptions): Promise<Host> {
  const proxy = {
    seed: options.seed,
    rate: options.rate,
    delayMs: options.timeoutMs + 500,
    kinds: options.kinds,
  };
  const child: ChildProcess = fork(HOST, [JSON.stringify(proxy)], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(field: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (!(field in message)) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message[field] as T);
      };
      const onExit = (code: number | null) => reject(new Error(`soak host exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.once('error', reject);
    });
  const ready = await next<{ url: string; modernUrl: string }>('ready');
  return {
    ...ready,
    report: () => {
      const report = next<Report>('report');
      child.send('report');
      return report;
    },
    stop: async () => {
      if (child.exitCode !== null || !child.connected) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await exited;
    },
  };
}

/** Heap used after two full collections, once what the last calls left for later has gone. */
async function heapAfterGc(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('heap figures need node --expose-gc');
  // Streams read to their end after their response (1 s at most), sockets closing, timers.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
