/**
 * The top-level `id` of a JSON-RPC message, read from its first bytes alone. A line too long to
 * read is dropped unparsed, but the call it answered must still be told: servers write the id
 * near the start (`{"jsonrpc":"2.0","id":7,"result":…`), so the head is usually enough.
 */
import type { RequestId } from '../../../core/jsonrpc.ts';

/** The id, or undefined when the head does not show it (cut short, nested first, or no object). */
export function leadingId(head: string): RequestId | undefined {
  let at = blank(head, 0);
  if (head[at] !== '{') return undefined;
  at += 1;
  for (;;) {
    at = blank(head, at);
    const key = stringAt(head, at);
    if (key === undefined) return undefined;
    at = blank(head, key.end);
    if (head[at] !== ':') return undefined;
    at = blank(head, at + 1);
    if (key.value === 'id') return idAt(head, at);
    at = skipValue(head, at);
    if (at === -1) return undefined;
    at = blank(head, at);
    if (head[at] !== ',') return undefined;
    at += 1;
  }
}

function blank(text: string, at: number): number {
  while (at < text.length && ' \t\r\n'.includes(text[at]!)) at += 1;
  return at;
}

/** The JSON string starting at `at`, and the index after it; undefined if it does not end here. */
function stringAt(text: string, at: number): { value: string; end: number } | undefined {
  if (text[at] !== '"') return undefined;
  for (let i = at + 1; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') {
      try {
        return { value: JSON.parse(text.slice(at, i + 1)) as string, end: i + 1 };
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function idAt(text: string, at: number): RequestId | undefined {
  if (text[at] === '"') return stringAt(text, at)?.value;
  const match = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/.exec(text.slice(at, at + 32));
  if (!match) return undefined;
  // A number cut off by the end of the head could be the start of a longer one.
  const after = blank(text, at + match[0].length);
  if (text[after] !== ',' && text[after] !== '}') return undefined;
  const id = Number(match[0]);
  return Number.isFinite(id) ? id : undefined;
}

/** The index after the JSON value starting at `at`, or -1 when the head ends inside it. */
function skipValue(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i += 1) {
    const char = text[i]!;
    if (char === '"') {
      const string = stringAt(text, i);
      if (string === undefined) return -1;
      i = string.end - 1;
      if (depth === 0) return string.end;
    } else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) return i + 1;
      if (depth < 0) return i;
    } else if (depth === 0 && (char === ',' || ' \t\r\n'.includes(char))) return i;
  }
  return -1;
}
