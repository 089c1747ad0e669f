/**
 * The markdown report: per client, the median over rounds, the min–max, and the median of the
 * per-round ratio to the raw undici floor measured in the same round (so drift between rounds
 * cancels out of the ratio).
 */

import { ADAPTERS, AUTH, CLIENTS, type ClientEntry, GRPC, STDIO } from './modules.ts';
import { NOTIFY_COUNT } from './protocol.ts';
import { median, range } from './stats.ts';
import type { WorkerResult } from './worker.ts';

export interface RoundResults {
  results: Map<string, WorkerResult>;
  /** Import time; a workspace package's from its dist/. */
  importMs: Map<string, number>;
  /** A workspace package's import time from its TypeScript sources (type stripping included). */
  importSourceMs: Map<string, number>;
  /** The toolwire command: median ms from spawn to exit, by command (the first is the floor). */
  cliMs: Map<string, number>;
}

type Pick = (result: WorkerResult, round: RoundResults) => number | undefined;
/** A column whose ratio to the floor means nothing (a signed growth) shows none. */
const NO_RATIO = new Set<Pick>();

function fmt(value: number, digits: number): string {
  if (!Number.isFinite(value)) return '–';
  return value.toFixed(digits);
}

/** `median (min–max) ×ratio` for one client and one figure. */
function cell(
  rounds: RoundResults[],
  id: string,
  baseline: string,
  pick: Pick,
  digits: number,
): string {
  const values: number[] = [];
  const ratios: number[] = [];
  for (const round of rounds) {
    const mine = round.results.get(id);
    const base = round.results.get(baseline);
    const value = mine ? pick(mine, round) : undefined;
    if (value === undefined) continue;
    values.push(value);
    const reference = base ? pick(base, round) : undefined;
    if (reference && id !== baseline && !NO_RATIO.has(pick)) ratios.push(value / reference);
  }
  if (values.length === 0) return '–';
  const [low, high] = range(values);
  const ratio = ratios.length ? ` ×${fmt(median(ratios), 2)}` : '';
  return `${fmt(median(values), digits)} (${fmt(low, digits)}–${fmt(high, digits)})${ratio}`;
}

function table(
  rounds: RoundResults[],
  columns: [string, Pick, number][],
  entries: readonly ClientEntry[] = CLIENTS,
): string {
  const lines = [
    `| client | ${columns.map(([name]) => name).join(' | ')} |`,
    `| --- | ${columns.map(() => '---').join(' | ')} |`,
  ];
  for (const client of entries) {
    if (!rounds.some((round) => round.results.has(client.id))) continue;
    const cells = columns.map(([, pick, digits]) =>
      cell(rounds, client.id, client.baseline, pick, digits),
    );
    lines.push(`| ${client.label} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

const SCENARIOS = ['JSON c1', 'JSON c32', 'SSE c1', 'SSE c32'];
const NOTIFY = ['notify c1', 'notify c32'];

function perScenario(
  field: 'callsPerSec' | 'p50Ms' | 'p99Ms' | 'cpuUsPerCall' | 'allocBytesPerCall',
  scale = 1,
  digits = 0,
  scenarios: readonly string[] = SCENARIOS,
): [string, Pick, number][] {
  return scenarios.map((name) => [
    name,
    (r) => (r.load[name]?.[field] ?? Number.NaN) * scale,
    digits,
  ]);
}

const heapPick: Pick = (r) => r.heapPer1000;
NO_RATIO.add(heapPick);

/** `<title> JSON c1` and `<title> JSON c32`: the sections measured on JSON answers only. */
function jsonColumns(
  title: string,
  field: Parameters<typeof perScenario>[0],
  scale = 1,
  digits = 0,
): [string, Pick, number][] {
  return perScenario(field, scale, digits, ['JSON c1', 'JSON c32']).map(
    ([name, pick, places]): [string, Pick, number] => [`${title} ${name}`, pick, places],
  );
}

/** Another transport beside its floor: its calls, their CPU and heap, and its connect. */
const TRANSPORT_COLUMNS: [string, Pick, number][] = [
  ...jsonColumns('calls/s', 'callsPerSec'),
  ...jsonColumns('p50 ms', 'p50Ms', 1, 3),
  ...jsonColumns('CPU µs', 'cpuUsPerCall', 1, 1),
  ...jsonColumns('heap KB', 'allocBytesPerCall', 1 / 1000, 1),
  ['connect (ms)', (r) => r.connectMs, 2],
  ['requests per connect', (r) => r.connectRequests, 0],
];

function cliTable(rounds: RoundResults[]): string {
  const labels = [...(rounds.find((round) => round.cliMs.size > 0)?.cliMs.keys() ?? [])];
  const [floor] = labels;
  const rows = labels.map((label) => {
    const values = rounds.map((round) => round.cliMs.get(label) ?? Number.NaN);
    const ratios = rounds.map(
      (round) =>
        (round.cliMs.get(label) ?? Number.NaN) / (round.cliMs.get(floor ?? '') ?? Number.NaN),
    );
    const [low, high] = range(values);
    const ratio = label === floor ? '' : ` ×${fmt(median(ratios), 2)}`;
    return `| ${label} | ${fmt(median(values), 0)} (${fmt(low, 0)}–${fmt(high, 0)})${ratio} |`;
  });
  return ['| command | ms |', '| --- | --- |', ...rows].join('\n');
}

export function markdown(header: string[], rounds: RoundResults[]): string {
  const last = (id: string) => rounds.at(-1)?.results.get(id);
  const connectNotes = [...CLIENTS, ...AUTH, ...GRPC]
    .map((client) => {
      const result = last(client.id);
      if (!result) return undefined;
      const seen = Object.entries(result.connectBreakdown).map(([what, n]) => `${what} ×${n}`);
      const left = result.handlesLeft.length ? result.handlesLeft.join(', ') : 'none';
      return `| ${client.label} | ${seen.join(', ')} | ${left} |`;
    })
    .filter((line) => line !== undefined);
  return [
    ...header,
    '',
    'Cells: median over rounds (min–max) ×median per-round ratio to raw undici on the same path.',
    '',
    '## Throughput (calls/s, higher is better)',
    '',
    table(rounds, perScenario('callsPerSec')),
    '',
    '## Latency p50 (ms)',
    '',
    table(rounds, perScenario('p50Ms', 1, 3)),
    '',
    '## Latency p99 (ms)',
    '',
    table(rounds, perScenario('p99Ms', 1, 3)),
    '',
    '## Client CPU per call (µs, user+system of the client process)',
    '',
    table(rounds, perScenario('cpuUsPerCall', 1, 1)),
    '',
    '## JS heap allocated per call (KB)',
    '',
    table(rounds, perScenario('allocBytesPerCall', 1 / 1000, 1)),
    '',
    `## ${NOTIFY_COUNT} log notifications before the result (SSE)`,
    '',
    table(rounds, [
      ...perScenario('callsPerSec', 1, 0, NOTIFY).map(
        ([name, pick, digits]): [string, Pick, number] => [`calls/s ${name}`, pick, digits],
      ),
      ...perScenario('p50Ms', 1, 3, NOTIFY).map(([name, pick, digits]): [string, Pick, number] => [
        `p50 ms ${name}`,
        pick,
        digits,
      ]),
      ...perScenario('cpuUsPerCall', 1, 1, NOTIFY).map(
        ([name, pick, digits]): [string, Pick, number] => [`CPU µs ${name}`, pick, digits],
      ),
    ]),
    '',
    '## SSE parse (MB/s of event data), connect, import, heap, handles',
    '',
    table(rounds, [
      ['parse 200 B events', (r) => r.parseMBps['200 B'], 1],
      ['parse 16 KiB events', (r) => r.parseMBps['16 KiB'], 1],
      ['connect (ms)', (r) => r.connectMs, 2],
      ['requests per connect', (r) => r.connectRequests, 0],
      ['import (ms)', (r, round) => round.importMs.get(r.client), 1],
      ['import, TS sources (ms)', (r, round) => round.importSourceMs.get(r.client), 1],
      ['heap growth per 1,000 calls (B)', heapPick, 0],
    ]),
    '',
    '## Adapters: one tool call through the tool set a framework is handed',
    '',
    'What the framework does per call, minus the model: the AI SDK validates the input, runs',
    '`execute` and `toModelOutput`; a LangChain agent `invoke`s the tool with a tool call. Here the',
    'ratio is to the client the adapter wraps, in the same round (toolwire for the toolwire',
    'adapters, @ai-sdk/mcp for its tool set, the official 1.x client for @langchain/mcp-adapters):',
    'CPU ×1.10 means the adapter adds 10% to a call.',
    '',
    table(
      rounds,
      [...jsonColumns('calls/s', 'callsPerSec'), ...jsonColumns('CPU µs', 'cpuUsPerCall', 1, 1)],
      ADAPTERS,
    ),
    '',
    '## stdio: a local server as a child process',
    '',
    'toolwire against the floor, a raw newline-JSON pipe to the same child (`stdio-server.ts`,',
    'spoken to at 2026-07-28): one request per line written, stdout split on newlines, each line',
    '`JSON.parse`d and matched by id. Ratio to the pipe, in the same round; the target is within',
    '1.2x of it in calls/s at concurrency 1 and 32.',
    '',
    table(
      rounds,
      [
        ...jsonColumns('calls/s', 'callsPerSec'),
        ...jsonColumns('p50 ms', 'p50Ms', 1, 3),
        ...jsonColumns('CPU µs', 'cpuUsPerCall', 1, 1),
      ],
      STDIO,
    ),
    '',
    '## OAuth (bearer): a protected resource',
    '',
    '`/protected` is `/modern` (stateless 2026-07-28) behind a bearer token: the server compares',
    '`Authorization` with its token before anything else and answers 401 with `WWW-Authenticate:',
    'Bearer resource_metadata=…` without it. The floor is raw undici sending the same header.',
    'toolwire is given the token (`auth: token`), or gets it with the client credentials grant',
    "from the server's token endpoint, with a store of its own per client so that every connect",
    'runs the grant (the 401, the two metadata documents, the token, `server/discover` again).',
    "Ratio to the floor in the same round; toolwire's ratio on `/modern` above is the same",
    'requests without authorization.',
    '',
    table(rounds, TRANSPORT_COLUMNS, AUTH),
    '',
    "## gRPC: MCP-lite's gRPC binding",
    '',
    "`grpc-server.ts` in the bench server's process, on a port of its own: bare `node:http2` with",
    'precomputed messages. The floor is the Connect client toolwire runs on, calling the same',
    '`CallTool` with the same generated stubs and nothing on top; toolwire is `createMcpClient`',
    'with a `grpc://` URL. Both connect with one `GetTools`. Ratio to the floor in the same round.',
    '',
    table(rounds, TRANSPORT_COLUMNS, GRPC),
    '',
    '## The toolwire command: start-up (ms from spawn to exit)',
    '',
    'Each round runs each command several times in turn and keeps the median; the cells are the',
    'median over rounds (min–max) and the per-round ratio to Node starting with nothing to do.',
    '',
    cliTable(rounds),
    '',
    '## What the server saw per connect, and handles left after close() (last round)',
    '',
    '| client | requests during connect (+20 ms) | active resources left after close() |',
    '| --- | --- | --- |',
    ...connectNotes,
    '',
  ].join('\n');
}
