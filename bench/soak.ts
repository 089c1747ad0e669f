/**
 * The long soak and the long fuzz (the short ones are in `npm test`: test/soak/). One client
 * per era makes 20,000 calls at concurrency 64 through the fault proxy (12% of requests get one
 * of twelve faults) to the counting server; then 10,000 short-lived clients meet the hostile
 * server. Figures per era and per fault kind go to bench/results/<date>-soak.md.
 *
 *   npm run bench:soak -- [--seed N] [--calls N] [--concurrency N] [--fuzz-cases N]
 *
 * (npm run build, then node --expose-gc --no-flush-bytecode bench/soak.ts: the built packages,
 * as a user runs them; the heap figure needs gc(), and bytecode flushed after repeated GCs would
 * show as negative growth.)
 *
 * Uses the client's default retry policy and a 10 s deadline per call (the `delay` fault holds
 * an answer 10.5 s). Nothing here asserts: the report is the product.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FAULT_KINDS } from '../test/soak/fault-proxy.ts';
import { type FuzzFigures, runFuzz } from '../test/soak/fuzz.ts';
import { type Era, runSoak, type SoakFigures } from '../test/soak/soak.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '2026' },
    calls: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '64' },
    'fuzz-cases': { type: 'string', default: '10000' },
  },
});
const seed = Number(values.seed);
const calls = Number(values.calls);
const concurrency = Number(values.concurrency);
const fuzzCases = Number(values['fuzz-cases']);

const started = new Date();
const loadBefore = loadavg();
const eras: SoakFigures[] = [];
for (const era of ['stateful', 'stateless'] as Era[]) {
  console.log(`soak: ${era}, ${calls} calls at concurrency ${concurrency}, seed ${seed}`);
  const figures = await runSoak({
    era,
    calls,
    concurrency,
    seed,
    rate: 0.12,
    timeoutMs: 10_000,
    heap: true,
  });
  console.log(summary(figures));
  eras.push(figures);
}
console.log(`fuzz: ${fuzzCases} cases, seed ${seed}`);
// 16 at a time with 1 s deadlines: more at once on a shared 2-core machine and most cases end in
// their first deadline, before the grammar reaches the deeper parts of the client.
const fuzz = await runFuzz({ cases: fuzzCases, concurrency: 16, seed, timeoutMs: 1_000 });
console.log(
  `fuzz: ${fuzz.crashes} crashes, ${fuzz.hangs} hangs, ${fuzz.untyped} untyped, ${fuzz.leaks} leaks`,
);

const report = render(eras, fuzz);
const file = fileURLToPath(
  new URL(`./results/${started.toISOString().slice(0, 10)}-soak.md`, import.meta.url),
);
writeFileSync(file, report);
console.log(`report: ${file}`);

function summary(f: SoakFigures): string {
  return `${f.era}: ${f.duplicates} duplicated, ${f.lost} lost, ${f.hangs} hangs, ${f.untyped} untyped, ${f.unhandled} unhandled, ${f.handlesAfterClose} handles after close (${f.seconds.toFixed(1)} s)`;
}

function render(soaks: SoakFigures[], fuzz: FuzzFigures): string {
  const [a, b] = soaks as [SoakFigures, SoakFigures];
  const row = (label: string, get: (f: SoakFigures) => string | number) =>
    `| ${label} | ${get(a)} | ${get(b)} |`;
  const kb = (bytes: number | undefined) =>
    bytes === undefined ? 'n/a' : `${(bytes / 1024).toFixed(1)} KiB`;
  const lines = [
    '# toolwire under faults: the long soak and fuzz',
    '',
    `- date: ${started.toISOString()}`,
    `- Node ${process.version}, ${process.platform}/${process.arch}; seed ${seed}`,
    `- load average (1 / 5 / 15 min) at the start ${loadBefore.map((x) => x.toFixed(2)).join(' / ')}, at the end ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}`,
    `- soak: one client per era, ${calls} calls at concurrency ${concurrency}, 12% of requests given a fault, the client's default retry policy, a 10 s deadline per call; half the calls idempotent (\`safe\`), half not (\`once\`); half answered as event streams. A caller that trusts \`retryable\` sends a failed call again once when it says so.`,
    `- fuzz: ${fuzz.cases} short-lived clients, 16 at a time, 1 s deadlines, each against a hostile server drawn from the seed`,
    '',
    '## Targets',
    '',
    '| figure | 2025-11-25 (stateful) | 2026-07-28 (stateless) |',
    '| --- | --- | --- |',
    row('duplicated non-idempotent executions', (f) => f.duplicates),
    row('lost idempotent calls', (f) => f.lost),
    row('hangs', (f) => f.hangs),
    row('untyped errors', (f) => f.untyped),
    row('unhandled rejections', (f) => f.unhandled),
    row('results delivered to the wrong call', (f) => f.misrouted),
    row('errors saying "did not run" for a call that ran', (f) => f.falseNotRun),
    row('handles after close()', (f) => f.handlesAfterClose),
    row('event loop delay, p99 / max (ms)', (f) => `${f.loopDelayP99Ms} / ${f.loopDelayMaxMs}`),
    row("the servers' event loop delay, max (ms)", (f) => f.hostLoopDelayMaxMs),
    row('heap growth per 1,000 calls (after GC, 25% → 100% of the calls)', (f) =>
      kb(f.heapGrowthPer1000),
    ),
    '',
    '## The run',
    '',
    '| figure | 2025-11-25 (stateful) | 2026-07-28 (stateless) |',
    '| --- | --- | --- |',
    row('calls', (f) => f.calls),
    row('seconds', (f) => f.seconds.toFixed(1)),
    row('HTTP requests through the proxy', (f) => f.requests),
    row('faults injected', (f) => f.faultsInjected),
    row('calls that succeeded', (f) => f.succeeded),
    row('calls that failed (typed)', (f) => f.failed),
    row('failed calls sent again because retryable said so', (f) => f.resentOnTrust),
    '',
    '## Per fault kind',
    '',
    'Calls counts the calls whose own requests (POST or resume) met the fault at least once; a',
    'fault on a request of no call (initialize, the GET stream, DELETE) is injected but hits no',
    'call directly. A call that met several kinds counts under each.',
    '',
  ];
  for (const f of soaks) {
    lines.push(
      `### ${f.era === 'stateful' ? '2025-11-25 (stateful)' : '2026-07-28 (stateless)'}`,
      '',
      '| fault | injected | calls hit | succeeded | failed | duplicated | lost |',
      '| --- | --- | --- | --- | --- | --- | --- |',
    );
    for (const kind of FAULT_KINDS) {
      const k = f.byKind[kind];
      lines.push(
        `| ${kind} | ${k.injected} | ${k.calls} | ${k.succeeded} | ${k.failed} | ${k.duplicates} | ${k.lost} |`,
      );
    }
    lines.push(
      '',
      `Errors by code: ${Object.entries(f.errors)
        .sort(([, x], [, y]) => y - x)
        .map(([code, n]) => `${code} ${n}`)
        .join(', ')}.`,
      '',
    );
    if (f.anomalies.length > 0) {
      lines.push('Anomalies:', '', ...f.anomalies.map((text) => `- ${text}`), '');
    }
  }
  lines.push(
    '## Fuzz',
    '',
    '| figure | value |',
    '| --- | --- |',
    `| cases | ${fuzz.cases} |`,
    `| seconds | ${fuzz.seconds.toFixed(1)} |`,
    `| operations (connect, listTools, callTool, listResources, ping) | ${fuzz.operations} |`,
    `| succeeded / failed typed | ${fuzz.succeeded} / ${fuzz.failed} |`,
    `| crashes (uncaught, unhandled) | ${fuzz.crashes} |`,
    `| hangs | ${fuzz.hangs} |`,
    `| untyped errors or warnings | ${fuzz.untyped} |`,
    `| InternalError (a bug of the client's own, typed at its boundary) | ${fuzz.internal} |`,
    `| credential sent to another origin, or in a message | ${fuzz.leaks} |`,
    `| request storms | ${fuzz.storms} (most requests in one case: ${fuzz.maxRequests}) |`,
    `| handles after close() | ${fuzz.handlesAfterClose} |`,
    `| event loop delay, p99 / max (ms) | ${fuzz.loopDelayP99Ms} / ${fuzz.loopDelayMaxMs} |`,
    '',
    `Errors by code: ${Object.entries(fuzz.errors)
      .sort(([, x], [, y]) => y - x)
      .map(([code, n]) => `${code} ${n}`)
      .join(', ')}.`,
    '',
    'What the hostile server served, by production of its grammar:',
    '',
    '| production | served |',
    '| --- | --- |',
    ...Object.entries(fuzz.served).map(([name, n]) => `| ${name} | ${n} |`),
    '',
  );
  if (fuzz.anomalies.length > 0) {
    lines.push('Anomalies:', '', ...fuzz.anomalies.map((text) => `- ${text}`), '');
  }
  return `${lines.join('\n')}\n`;
}
