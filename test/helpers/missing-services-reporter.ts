/**
 * The last line of a run that skipped tests for a missing system service: which service, how many
 * tests, and how to get it. It reads the notes `needs()` (services.ts) skips with, so it counts
 * what was skipped, not what a file meant to skip. Silent when nothing was.
 */
import type { Reporter, TestModule } from 'vitest/node';

/** The note of a skip for a missing service, as services.ts words it: `<what> not found: <how>`. */
const NOTE = /^(\S+) not found: (.+)$/;

export default class MissingServicesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const line = missingServicesLine(modules);
    if (line) process.stdout.write(`\n${line}\n`);
  }
}

export function missingServicesLine(modules: ReadonlyArray<TestModule>): string | undefined {
  // what -> how -> tests
  const skipped = new Map<string, Map<string, number>>();
  for (const module of modules) {
    for (const test of module.children.allTests('skipped')) {
      const result = test.result();
      const match = result.state === 'skipped' ? NOTE.exec(result.note ?? '') : null;
      if (!match) continue;
      const [, what = '', how = ''] = match;
      const hows = skipped.get(what) ?? new Map<string, number>();
      hows.set(how, (hows.get(how) ?? 0) + 1);
      skipped.set(what, hows);
    }
  }
  if (skipped.size === 0) return undefined;
  const parts = [...skipped].map(([what, hows]) => {
    const total = [...hows.values()].reduce((sum, count) => sum + count, 0);
    return `${what} (${total} test${total === 1 ? '' : 's'}: ${ways(hows)})`;
  });
  return `skipped for a missing service: ${parts.join(', ')}`;
}

/**
 * How to get it: one way, or the way every test takes and what some also accept
 * ("apt-get install redis-server, or set REDIS_URL for 20 of them"), or each way with its count.
 */
function ways(hows: Map<string, number>): string {
  const all = [...hows.keys()];
  const [base = ''] = [...all].sort((a, b) => a.length - b.length);
  if (all.every((how) => how.startsWith(base))) {
    const more = [...hows]
      .filter(([how]) => how !== base)
      .map(([how, count]) => `${how.slice(base.length)} for ${count} of them`);
    return base + more.join('');
  }
  return [...hows].map(([how, count]) => `${how} (${count})`).join('; ');
}
