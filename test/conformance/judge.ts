/**
 * The verdict on one scenario run against the expected-failures list. Pure, so its cases are
 * unit-tested apart from the suite.
 */
import type { Check, ScenarioRun } from './run-scenario.ts';

export type Verdict =
  | { readonly kind: 'ok' }
  /** The suite ran the scenario but judged nothing (every check SKIPPED): not a pass. */
  | { readonly kind: 'skipped'; readonly why: string }
  | { readonly kind: 'failed'; readonly why: string };

/** Holds a run to the list: unlisted failures fail, and so do listed scenarios that pass. */
export function judge(
  run: ScenarioRun,
  expectedFailure: string | undefined,
  section: string,
): Verdict {
  const stale = `remove it from the "${section}" section of expected-failures.yaml`;
  if (run.outcome === 'hung') {
    // Even a listed failure must fail in bounded time: a hang is a different bug.
    return { kind: 'failed', why: 'did not finish in time; its process tree was killed' };
  }
  if (run.outcome === 'passed') {
    if (run.checks.every((check) => check.status === 'SKIPPED')) {
      const why = 'the suite skipped every check of this scenario';
      return expectedFailure === undefined
        ? { kind: 'skipped', why }
        : { kind: 'failed', why: `${why}: ${stale}` };
    }
    return expectedFailure === undefined
      ? { kind: 'ok' }
      : { kind: 'failed', why: `passes now: ${stale}` };
  }
  if (expectedFailure !== undefined) return { kind: 'ok' };
  const why = [
    `fails, and the "${section}" section of expected-failures.yaml does not list it`,
    ...failedChecks(run.checks),
    '--- conformance output (tail) ---',
    run.output,
  ].join('\n');
  return { kind: 'failed', why };
}

function failedChecks(checks: readonly Check[]): string[] {
  return checks
    .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
    .map((check) => {
      const detail = check.errorMessage === undefined ? '' : `: ${check.errorMessage}`;
      return `  ${check.status} ${check.id} (${check.description})${detail}`;
    });
}
