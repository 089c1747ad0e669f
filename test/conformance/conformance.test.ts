/**
 * The official MCP conformance suite as outside judge: one test per scenario per suite (see
 * suites.ts), each one a run of the suite's own CLI, held to expected-failures.yaml.
 */
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadExpectedFailures } from './expected-failures.ts';
import { judge } from './judge.ts';
import { createLimit } from './limit.ts';
import { runScenario, SCENARIO_DEADLINE_MS } from './run-scenario.ts';
import { type Scenario, SUITES, suiteTitle } from './suites.ts';

/** Scenario runs at once; measured on two cores (see README.md). */
const CONCURRENCY = 4;
/** Generous: a test may wait for a slot before its own bounded run starts. */
const TEST_TIMEOUT_MS = 3 * SCENARIO_DEADLINE_MS;

const limit = createLimit(CONCURRENCY);
const expected = loadExpectedFailures();

/** The reference server the server-mode suites judge, with the fixtures they name. */
let server: ReferenceServer | undefined;
beforeAll(async () => {
  server = await startReferenceServer({ conformanceFixtures: true, dualEra: true });
});
afterAll(async () => {
  await server?.close();
});

function testName(scenario: Scenario, reason: string | undefined): string {
  const scoring = scenario.notScored === undefined ? '' : ` (not scored: ${scenario.notScored})`;
  const verdict = reason === undefined ? 'passes' : `fails as expected: ${reason}`;
  return `${scenario.name}${scoring} ${verdict}`;
}

test('expected-failures.yaml gives each entry a one-line reason, in a section per suite', () => {
  expect(expected.problems).toEqual([]);
  expect([...expected.sections.keys()].sort()).toEqual(SUITES.map((suite) => suite.id).sort());
});

describe.concurrent('MCP conformance', () => {
  for (const suite of SUITES) {
    const reasons = expected.sections.get(suite.id) ?? new Map<string, string>();
    describe(suiteTitle(suite), () => {
      test(`expected-failures.yaml "${suite.id}" lists only scenarios this suite runs`, () => {
        const names = new Set(suite.scenarios.map((scenario) => scenario.name));
        expect([...reasons.keys()].filter((name) => !names.has(name))).toEqual([]);
      });

      for (const scenario of suite.scenarios) {
        const reason = reasons.get(scenario.name);
        test(
          testName(scenario, reason),
          async (context) => {
            const target = suite.mode === 'server' ? server?.url : undefined;
            const run = await limit(() => runScenario(suite, scenario.name, target));
            const verdict = judge(run, reason, suite.id);
            if (verdict.kind === 'skipped') context.skip(verdict.why);
            if (verdict.kind === 'failed') expect.fail(verdict.why);
          },
          TEST_TIMEOUT_MS,
        );
      }
    });
  }
});
