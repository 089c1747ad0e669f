/**
 * Tool names every provider accepts (`^[a-zA-Z0-9_-]{1,64}$`: OpenAI, Anthropic and Gemini agree
 * on it), unique within one set, and mapped back to the server's names.
 */
import { createHash } from 'node:crypto';

const SAFE = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;

/** A provider-safe name for `name`: unchanged when it already is one. */
export function safeName(name: string): string {
  if (SAFE.test(name)) return name;
  const replaced = name.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool';
  if (replaced.length <= MAX_LENGTH) return replaced;
  // Too long: keep the start readable, and a hash of the whole so two long names stay apart.
  return `${replaced.slice(0, MAX_LENGTH - 9)}_${hash(name)}`;
}

/**
 * Names for a list of tools, in order: `prefix + name` made safe (when `safe`), with a suffix
 * where two would otherwise collide. Returns the LangChain name for each server name.
 */
export function assignNames(
  names: readonly string[],
  options: { prefix: string; safe: boolean },
): Map<string, string> {
  const assigned = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of names) {
    const wanted = options.safe ? safeName(options.prefix + name) : options.prefix + name;
    let candidate = wanted;
    for (let n = 2; taken.has(candidate); n++) {
      const suffix = `_${n}`;
      candidate = wanted.slice(0, (options.safe ? MAX_LENGTH : Infinity) - suffix.length) + suffix;
    }
    taken.add(candidate);
    assigned.set(name, candidate);
  }
  return assigned;
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}
