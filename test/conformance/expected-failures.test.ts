import { describe, expect, it } from 'vitest';
import { loadExpectedFailures } from './expected-failures.ts';

describe('loadExpectedFailures', () => {
  it('reads each section as scenario → reason, an empty section as no entries', () => {
    const { sections, problems } = loadExpectedFailures(
      ['stable/client:', '  auth/basic-cimd: "waits for OAuth issue"', 'stable/server: {}'].join(
        '\n',
      ),
    );
    expect(problems).toEqual([]);
    expect(sections.get('stable/client')).toEqual(
      new Map([['auth/basic-cimd', 'waits for OAuth issue']]),
    );
    expect(sections.get('stable/server')).toEqual(new Map());
  });

  it('reports an entry without a one-line reason and a section that is a list', () => {
    const { problems } = loadExpectedFailures(
      ['stable/client:', '  auth/basic-cimd:', 'stable/server:', '  - ping'].join('\n'),
    );
    expect(problems).toEqual([
      'stable/client: auth/basic-cimd needs a one-line reason',
      'stable/server: must map scenario names to reasons',
    ]);
  });
});
