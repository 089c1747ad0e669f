import { describe, expect, it } from 'vitest';
import { jsonText, printable, visible } from './printable.ts';

const CONTROL = /(?![\n\t])\p{Cc}/u;

describe("a server's words on a terminal", () => {
  it('drops every C0 control but newline and tab, DEL and every C1 control', () => {
    const all = Array.from({ length: 0xa0 }, (_, code) => String.fromCharCode(code)).join('');
    const ascii = Array.from({ length: 0x5f }, (_, at) => String.fromCharCode(0x20 + at)).join('');
    expect(printable(all)).toBe(`\t\n${ascii}`);
    expect(printable('a\u001b]52;c;ZXZpbA==\u0007b\u009b2Jc\u007f')).toBe('a]52;c;ZXZpbA==b2Jc');
  });

  it('writes out what a name hides, on one line, and tells a typed backslash apart', () => {
    expect(visible('rm\u001b[2K\u001b[1Gsafe')).toBe(String.raw`rm\x1b[2K\x1b[1Gsafe`);
    expect(visible('a\nb\tc\u007f\u009b')).toBe(String.raw`a\x0ab\x09c\x7f\x9b`);
    expect(visible('evil\u202egnp.exe\u200b')).toBe(String.raw`evil\u202egnp.exe\u200b`);
    expect(visible(String.raw`a\x1b`)).toBe(String.raw`a\\x1b`);
    expect(visible('tools_ok-1.2 éß')).toBe('tools_ok-1.2 éß');
  });

  it('keeps JSON the same document while escaping DEL and C1, which JSON.stringify leaves raw', () => {
    const value = { name: 'x\u001b\u007f\u009b', list: ['\n'] };
    const text = jsonText(value);
    expect(text).not.toMatch(CONTROL);
    expect(JSON.parse(text)).toEqual(value);
    expect(jsonText(value, 0)).toBe(String.raw`{"name":"x\u001b\u007f\u009b","list":["\n"]}`);
  });
});
