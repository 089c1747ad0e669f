import { describe, expect, it } from 'vitest';
import { judge } from './judge.ts';
import type { Check } from './run-scenario.ts';

function check(status: Check['status'], id = 'some-check'): Check {
  return { id, name: id, status, description: `${id} holds` };
}

const SECTION = 'stable/client';

describe('judge', () => {
  it('accepts a passing scenario that is not listed', () => {
    const run = { outcome: 'passed', checks: [check('SUCCESS')], output: '' } as const;
    expect(judge(run, undefined, SECTION)).toEqual({ kind: 'ok' });
  });

  it('fails a passing scenario that is still listed, naming the section to remove it from', () => {
    const run = { outcome: 'passed', checks: [check('SUCCESS')], output: '' } as const;
    const verdict = judge(run, 'waits for OAuth issue', SECTION);
    expect(verdict).toMatchObject({ kind: 'failed', why: expect.stringContaining('passes now') });
    expect(verdict).toMatchObject({ why: expect.stringContaining(`"${SECTION}"`) });
  });

  it('accepts a failing scenario that is listed', () => {
    const run = { outcome: 'failed', checks: [check('FAILURE')], output: '' } as const;
    expect(judge(run, 'waits for OAuth issue', SECTION)).toEqual({ kind: 'ok' });
  });

  it('fails a failing scenario that is not listed, with its failed checks and output', () => {
    const checks = [check('SUCCESS', 'fine'), check('WARNING', 'late'), check('FAILURE', 'broken')];
    const run = { outcome: 'failed', checks, output: 'client exited with code 1' } as const;
    const verdict = judge(run, undefined, SECTION);
    expect(verdict.kind).toBe('failed');
    const why = verdict.kind === 'failed' ? verdict.why : '';
    expect(why).toContain('WARNING late');
    expect(why).toContain('FAILURE broken');
    expect(why).not.toContain('fine');
    expect(why).toContain('client exited with code 1');
  });

  it('fails a hung scenario even when it is listed', () => {
    const run = { outcome: 'hung', checks: [], output: '' } as const;
    expect(judge(run, 'waits for OAuth issue', SECTION).kind).toBe('failed');
  });

  it('reports a scenario whose checks the suite all skipped as skipped, not passed', () => {
    const run = { outcome: 'passed', checks: [check('SKIPPED')], output: '' } as const;
    expect(judge(run, undefined, SECTION).kind).toBe('skipped');
    expect(judge(run, 'waits for issue 3', SECTION).kind).toBe('failed');
  });
});
