import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import { runScenario } from './run-scenario.ts';
import type { Suite } from './suites.ts';

/** A suite whose CLI is fixtures/fake-suite.ts, so the runner can be tested without the real one. */
const FAKE: Suite = {
  id: 'fake/server',
  line: {
    name: 'fake',
    version: '0.0.0',
    cli: fileURLToPath(new URL('./fixtures/fake-suite.ts', import.meta.url)),
    requirementsDir: '',
  },
  mode: 'server',
  scenarios: [],
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('runScenario', () => {
  it('kills the whole process tree of a run that outlives its deadline', async () => {
    const run = await runScenario(FAKE, 'hang', 'http://127.0.0.1:9/mcp', 1_000);
    expect(run.outcome).toBe('hung');
    const pid = Number(/client pid (\d+)/.exec(run.output)?.[1]);
    expect(pid).toBeGreaterThan(0);
    await waitFor(() => !alive(pid));
  });

  it('reads back the exit code, the checks the suite wrote and its output', async () => {
    const run = await runScenario(FAKE, 'some-scenario', 'http://127.0.0.1:9/mcp');
    expect(run.outcome).toBe('failed');
    expect(run.checks).toEqual([expect.objectContaining({ id: 'it-works', status: 'FAILURE' })]);
    expect(run.output).toContain('Client exited with code 1');
  });
});
