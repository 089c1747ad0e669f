/**
 * SKILL.md's YAML frontmatter, compared field by field with the entry's: a server that lists one
 * description and serves another has shown the application one skill and the model another.
 * `yaml` is imported here, when a skill is loaded, and never before.
 */
import { isObject, type JsonObject } from '../core/jsonrpc.ts';

/** The frontmatter (between the leading `---` lines) and the body; undefined without one. */
export async function readFrontmatter(
  text: string,
): Promise<{ frontmatter: JsonObject; body: string } | { problem: string }> {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { problem: 'SKILL.md has no frontmatter' };
  const { parse } = await import('yaml');
  let parsed: unknown;
  try {
    // The core schema: no dates, no custom tags; a few aliases at most (no billion laughs).
    parsed = parse(match[1]!, { schema: 'core', maxAliasCount: 16, uniqueKeys: true });
  } catch (error) {
    return { problem: `its frontmatter is not YAML (${(error as Error).message.split('\n')[0]})` };
  }
  if (!isObject(parsed)) return { problem: 'its frontmatter is not a mapping' };
  return { frontmatter: parsed, body: text.slice(match[0].length) };
}

/** The first field where the two disagree, by its key; undefined when they agree on every one. */
export function firstDifference(served: JsonObject, listed: JsonObject): string | undefined {
  const keys = new Set([...Object.keys(served), ...Object.keys(listed)]);
  for (const key of keys) if (!same(served[key], listed[key])) return key;
  return undefined;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => same(item, b[index]))
    );
  }
  if (isObject(a) && isObject(b)) return firstDifference(a, b) === undefined;
  return false;
}
