import { PassThrough } from 'node:stream';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { showSignIn } from './credentials.ts';
import { UnsafeUrlError } from './openable.ts';
import { Terminal } from './terminal.ts';

const opened = vi.hoisted(() => [] as unknown[][]);
vi.mock('open', () => ({
  default: async (...args: unknown[]) => {
    opened.push(args);
  },
}));

/** A terminal a person sits at, its stderr recorded. */
function terminal(): { terminal: Terminal; stderr: () => string } {
  const chunks: string[] = [];
  const stderr = Object.assign(new PassThrough(), { isTTY: true });
  stderr.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const streams = {
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: new PassThrough() as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
  };
  return { terminal: new Terminal(streams), stderr: () => chunks.join('') };
}

beforeEach(() => {
  opened.length = 0;
});

describe('the sign-in page of toolwire login', () => {
  it('is printed and handed to the opener as one argument when it is https', async () => {
    const { terminal: shown, stderr } = terminal();
    const url = new URL('https://as.example/authorize?state=s&client_id=c');
    await showSignIn(url, shown, true);
    expect(opened).toEqual([[url.href]]);
    expect(stderr()).toBe(`Sign in at: ${url.href}\n`);
  });

  it('is neither printed nor opened when it is not https (or http to this machine)', async () => {
    for (const href of [
      'http://as.example/authorize',
      'file:///etc/passwd',
      'javascript:alert(document.cookie)',
      'smb://as.example/share',
    ]) {
      const { terminal: shown, stderr } = terminal();
      await expect(showSignIn(new URL(href), shown, true)).rejects.toThrow(UnsafeUrlError);
      expect(stderr()).toBe('');
    }
    expect(opened).toEqual([]);
  });

  it('may be http on a loopback address, where a local authorization server listens', async () => {
    const { terminal: shown } = terminal();
    await showSignIn(new URL('http://127.0.0.1:4444/authorize'), shown, true);
    expect(opened).toEqual([['http://127.0.0.1:4444/authorize']]);
  });
});
