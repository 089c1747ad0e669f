import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type Streams, Terminal } from './terminal.ts';

const CONTROL = /(?![\n\t])\p{Cc}/u;
const HOSTILE = 'x\u001b]52;c;ZXZpbA==\u0007\u001b]0;title\u0007\u009b2J\u007fy';

/** Streams that record what is written; a terminal on every side when `tty`. */
function recorded(tty = false): { streams: Streams; stdout: () => string; stderr: () => string } {
  const stream = () => {
    const chunks: string[] = [];
    const fake = new PassThrough();
    fake.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
    Object.assign(fake, { isTTY: tty, columns: 80 });
    return { fake: fake as unknown as NodeJS.WriteStream, text: () => chunks.join('') };
  };
  const stdout = stream();
  const stderr = stream();
  const stdin = Object.assign(new PassThrough(), { isTTY: tty }) as unknown as NodeJS.ReadStream;
  return {
    streams: { stdin, stdout: stdout.fake, stderr: stderr.fake },
    stdout: stdout.text,
    stderr: stderr.text,
  };
}

describe('the terminal', () => {
  it('writes no control character from a string, on stdout or stderr, in either mode', async () => {
    for (const json of [false, true]) {
      const { streams, stdout, stderr } = recorded();
      const terminal = new Terminal(streams, { json });
      terminal.print(HOSTILE, terminal.out('bold', HOSTILE));
      terminal.write(HOSTILE);
      terminal.say(HOSTILE, terminal.err('dim', HOSTILE));
      terminal.fail(HOSTILE);
      terminal.tell(HOSTILE);
      await terminal.live(HOSTILE, HOSTILE);
      terminal.printJson({ name: HOSTILE });
      await new Promise((resolve) => setImmediate(resolve));
      expect(stdout()).not.toMatch(CONTROL);
      expect(stderr()).not.toMatch(CONTROL);
      expect(stderr()).toContain('✖ x]52;c;ZXZpbA==]0;title2Jy\n');
      expect(JSON.parse(stdout().slice(stdout().indexOf('{')))).toEqual({ name: HOSTILE });
    }
  });

  it('keeps the styles it adds itself', () => {
    const { streams, stdout } = recorded();
    const terminal = new Terminal(streams);
    const styled = terminal.out('bold', 'a\u001b[31mb');
    const previous = process.env['FORCE_COLOR'];
    process.env['FORCE_COLOR'] = '1';
    try {
      const coloured = new Terminal(recorded().streams);
      expect(coloured.out('bold', 'a\u001b[31mb').text).toBe('\u001b[1ma[31mb\u001b[22m');
    } finally {
      if (previous === undefined) delete process.env['FORCE_COLOR'];
      else process.env['FORCE_COLOR'] = previous;
    }
    terminal.print(styled, ' and ', 'c\u001b[0m');
    expect(stdout()).toBe('a[31mb and c[0m\n');
  });
});
