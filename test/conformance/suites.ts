/**
 * The five sets of scenarios CI runs: each line of the suite, each mode (the suite's `client`
 * command judges our client, its `server` command judges the reference server), and on the 0.2
 * line each frozen requirement set. Scenario lists come from the installed packages, so an
 * upgrade that adds a scenario adds a test for it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { type Line, NEXT, NODE, STABLE } from './lines.ts';

export type Mode = 'client' | 'server';

export interface Scenario {
  readonly name: string;
  /** Why a requirement set runs it without scoring it (extension, pending, ...), if it does. */
  readonly notScored?: string;
}

export interface Suite {
  /** The section of expected-failures.yaml that lists this suite's known failures. */
  readonly id: string;
  readonly line: Line;
  readonly mode: Mode;
  /** The requirement set's revision: its scenarios run at its wire, as --requirements runs them. */
  readonly requirements?: string;
  readonly scenarios: readonly Scenario[];
}

/**
 * 0.1.16's `list` names pending server scenarios without marking them, and its default (active)
 * server suite leaves these two out (pendingClientScenariosList in its src/scenarios/index.ts).
 */
const STABLE_PENDING_SERVER = new Set(['json-schema-2020-12', 'server-sse-polling']);

/** The scenario names `conformance list --<mode>` prints, one `  - name [versions]` a line. */
function listed(line: Line, mode: Mode): string[] {
  const output = execFileSync(NODE, [line.cli, 'list', `--${mode}`], { encoding: 'utf8' });
  return [...output.matchAll(/^ {2}- (\S+)/gm)].map((match) => match[1] ?? '');
}

interface RequirementSet {
  server?: string[];
  client?: string[];
  not_scored?: Array<{ scenario: string; leg: Mode; reason: string }>;
}

/** What `--requirements <revision>` runs for a mode: the required list, then the unscored ones. */
function requirementSet(line: Line, revision: string, mode: Mode): Scenario[] {
  const file = join(line.requirementsDir, `${revision}.yaml`);
  const set = parse(readFileSync(file, 'utf8')) as RequirementSet;
  const required = (set[mode] ?? []).map((name) => ({ name }));
  const unscored = (set.not_scored ?? [])
    .filter((entry) => entry.leg === mode)
    .map((entry) => ({ name: entry.scenario, notScored: entry.reason }));
  return [...required, ...unscored];
}

export const SUITES: readonly Suite[] = [
  {
    id: 'stable/client',
    line: STABLE,
    mode: 'client',
    scenarios: listed(STABLE, 'client').map((name) => ({ name })),
  },
  {
    id: 'stable/server',
    line: STABLE,
    mode: 'server',
    scenarios: listed(STABLE, 'server')
      .filter((name) => !STABLE_PENDING_SERVER.has(name))
      .map((name) => ({ name })),
  },
  {
    id: 'next/client@2025-11-25',
    line: NEXT,
    mode: 'client',
    requirements: '2025-11-25',
    scenarios: requirementSet(NEXT, '2025-11-25', 'client'),
  },
  {
    id: 'next/client@2026-07-28',
    line: NEXT,
    mode: 'client',
    requirements: '2026-07-28',
    scenarios: requirementSet(NEXT, '2026-07-28', 'client'),
  },
  {
    id: 'next/server@2026-07-28',
    line: NEXT,
    mode: 'server',
    requirements: '2026-07-28',
    scenarios: requirementSet(NEXT, '2026-07-28', 'server'),
  },
];

/**
 * How a suite reads in test names: `stable 0.1.16 client`, or for a requirement set
 * `next 0.2.0-alpha.12 server --requirements 2026-07-28`.
 */
export function suiteTitle(suite: Suite): string {
  const set = suite.requirements === undefined ? '' : ` --requirements ${suite.requirements}`;
  return `${suite.line.name} ${suite.line.version} ${suite.mode}${set}`;
}
