/**
 * expected-failures.yaml: for each suite (section), the scenarios known to fail and why, one line
 * each. The runner fails a scenario that fails without an entry, and one that passes with an
 * entry, so the file can only shrink as the work it waits for lands.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export const EXPECTED_FAILURES_FILE = new URL('./expected-failures.yaml', import.meta.url);

export interface ExpectedFailures {
  /** Section (suite id) → scenario → one-line reason. */
  readonly sections: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** What is wrong with the file's shape; empty when it is well formed. */
  readonly problems: readonly string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads and checks the file; shape problems are reported, not thrown, so a test can name them. */
export function loadExpectedFailures(text = readFileSync(EXPECTED_FAILURES_FILE, 'utf8')) {
  const problems: string[] = [];
  const sections = new Map<string, Map<string, string>>();
  const document: unknown = parse(text) ?? {};
  if (!isRecord(document)) {
    return { sections, problems: ['the file must be a mapping of sections'] };
  }
  for (const [section, entries] of Object.entries(document)) {
    const reasons = new Map<string, string>();
    sections.set(section, reasons);
    // An empty section (`stable/client:` with nothing under it) parses as null.
    if (entries === null) continue;
    if (!isRecord(entries)) {
      problems.push(`${section}: must map scenario names to reasons`);
      continue;
    }
    for (const [scenario, reason] of Object.entries(entries)) {
      if (typeof reason !== 'string' || reason.trim() === '' || reason.includes('\n')) {
        problems.push(`${section}: ${scenario} needs a one-line reason`);
      } else {
        reasons.set(scenario, reason);
      }
    }
  }
  return { sections, problems } satisfies ExpectedFailures;
}
