import { describe, expect, it } from 'vitest';
import { plainSegments, serverDirectory } from './skill-files.ts';

describe('the names a server chooses, as directory names', () => {
  it('makes a host or a config name one plain directory name', () => {
    expect(serverDirectory('127.0.0.1:3000')).toBe('127.0.0.1_3000');
    expect(serverDirectory('../..')).toBe('_..');
    expect(serverDirectory('..')).toBe('server');
    expect(serverDirectory('a/b\\c')).toBe('a_b_c');
  });

  it('refuses a path with a segment that climbs, hides or is empty', () => {
    expect(plainSegments('reference/greeting', 'p')).toEqual(['reference', 'greeting']);
    for (const path of ['../x', 'a/./b', 'a//b', '/abs', 'a\\..\\b', 'c:x', 'a/\u001b]0;x']) {
      expect(() => plainSegments(path, 'p')).toThrow(/not a plain path/);
    }
  });
});
