/**
 * Seeded randomness for the soak and the fuzz: the same seed gives the same faults for the same
 * call, whatever order concurrent requests arrive in.
 */

/** A number in [0, 1) from the parts, stable across runs (cyrb53). */
export function chance(...parts: (string | number)[]): number {
  const text = parts.join('\u0000');
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)) / 2 ** 53;
}

/** A sequence of numbers in [0, 1) from one seed (mulberry32). */
export function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One of `items`, picked by a number in [0, 1). */
export function pick<T>(items: readonly T[], at: number): T {
  return items[Math.min(items.length - 1, Math.floor(at * items.length))]!;
}
