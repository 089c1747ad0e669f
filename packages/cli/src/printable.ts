/**
 * A server's words made safe for a terminal. Every escape sequence starts with a control
 * character (ESC in C0, or CSI, OSC and the like in C1), so text without them can set no title,
 * write no clipboard, draw no link and move no cursor. Free text loses them; a name shows them
 * written out, so a person sees that it holds something odd rather than what it would draw.
 */

/** A control character a terminal may act on: C0 but newline and tab, DEL, C1. */
const CONTROL = /(?![\n\t])\p{Cc}/gu;

/**
 * What a name must not hide: every control (newline and tab too: a name is one line), the
 * invisible format characters (bidi overrides, zero widths) and the backslash, so that a written
 * out `\x1b` cannot be mistaken for one the server typed.
 */
const HIDING = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\\]/gu;

/** `text` without the control characters a terminal would act on; lines and tabs are kept. */
export function printable(text: string): string {
  return text.replace(CONTROL, '');
}

/** `name` on one line with whatever could hide or disguise it written out: `\x1b`, `\u202e`. */
export function visible(name: string): string {
  return name.replace(HIDING, (character) => {
    if (character === '\\') return '\\\\';
    const code = character.codePointAt(0) ?? 0;
    if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
    return code <= 0xffff
      ? `\\u${code.toString(16).padStart(4, '0')}`
      : `\\u{${code.toString(16)}}`;
  });
}

/**
 * `value` as JSON text with no control character in it. JSON.stringify escapes C0 only; DEL and
 * C1 are escaped here too, which leaves the same document.
 */
export function jsonText(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(
    CONTROL,
    (character) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
}
