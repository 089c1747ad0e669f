import { describe, expect, it } from 'vitest';
import { isServerName, ServerToolNames } from './names.ts';

describe('server__tool names', () => {
  it('prefixes each tool with its server and goes back', () => {
    const names = ServerToolNames.of([
      { server: 'github', tools: ['search', 'create_issue'] },
      { server: 'jira', tools: ['search'] },
    ]);
    expect(names.name('github', 'search')).toBe('github__search');
    expect(names.name('jira', 'search')).toBe('jira__search');
    expect(names.origin('github__create_issue')).toEqual({
      server: 'github',
      tool: 'create_issue',
    });
    expect(names.origin('jira__search')).toEqual({ server: 'jira', tool: 'search' });
  });

  it('repairs a name providers would refuse, the same way every time, and keeps the way back', () => {
    const long = `tool.${'x'.repeat(80)}`;
    const listing = [{ server: 'files', tools: ['read.file', long, 'read_file'] }];
    const names = ServerToolNames.of(listing);
    const all = ['read.file', long, 'read_file'].map((tool) => names.name('files', tool)!);
    for (const name of all) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(all).size).toBe(3);
    // The name that needed no repair keeps it; the repaired one gets a hash.
    expect(names.name('files', 'read_file')).toBe('files__read_file');
    expect(names.origin(names.name('files', 'read.file')!)).toEqual({
      server: 'files',
      tool: 'read.file',
    });
    expect(ServerToolNames.of(listing).name('files', long)).toBe(names.name('files', long));
  });

  it('splits a name it never gave out at the first separator', () => {
    expect(new ServerToolNames().origin('github__a__b')).toEqual({
      server: 'github',
      tool: 'a__b',
    });
    expect(new ServerToolNames().origin('plain')).toBeUndefined();
  });

  it('accepts server names that cannot blur the separator', () => {
    for (const good of ['github', 'my-server', 'a_b', 'x1']) expect(isServerName(good)).toBe(true);
    for (const bad of ['', 'a__b', '_a', 'a_', 'a.b', 'a b']) expect(isServerName(bad)).toBe(false);
  });
});
