import { describe, expect, it } from 'vitest';
import { checkKeys, closest, type OptionKeys, type OptionShape } from './option-keys.ts';

const SHAPE = {
  timeoutMs: true,
  headers: true,
  retry: { retries: true, minDelayMs: true },
  auth: (value: object) => ('headers' in value ? undefined : { clientId: true }),
} as const satisfies OptionShape;

function messageOf(run: () => void): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('expected a TypeError');
}

describe('checkKeys', () => {
  it('takes known keys, at every level', () => {
    expect(() =>
      checkKeys({ timeoutMs: 1, retry: { retries: 2 }, auth: { clientId: 'a' } }, SHAPE),
    ).not.toThrow();
  });

  it('names an unknown key and the closest known one', () => {
    expect(messageOf(() => checkKeys({ timeoutMS: 1 }, SHAPE))).toBe(
      'unknown option `timeoutMS`; did you mean `timeoutMs`?',
    );
    expect(messageOf(() => checkKeys({ retry: { retires: 1 } }, SHAPE))).toBe(
      'unknown option `retry.retires`; did you mean `retry.retries`?',
    );
  });

  it('lists the known keys when none is close', () => {
    expect(messageOf(() => checkKeys({ bogus: 1 }, SHAPE))).toBe(
      'unknown option `bogus`; the options here are `timeoutMs`, `headers`, `retry`, `auth`',
    );
  });

  it("leaves the user's keys alone: free values, chosen shapes that say so, class instances", () => {
    expect(() => checkKeys({ headers: { 'X-Anything': 'a' } }, SHAPE)).not.toThrow();
    expect(() => checkKeys({ auth: { headers: () => ({}), mine: 1 } }, SHAPE)).not.toThrow();
    expect(messageOf(() => checkKeys({ auth: { clientID: 'a' } }, SHAPE))).toMatch(
      /^unknown option `auth.clientID`; did you mean `auth.clientId`\?$/,
    );
    class Store {
      other = 1;
    }
    expect(() => checkKeys({ retry: new Store() }, SHAPE)).not.toThrow();
    expect(() => checkKeys(new Store(), SHAPE)).not.toThrow();
  });

  it('never takes an inherited name for a known key', () => {
    expect(messageOf(() => checkKeys({ toString: 1 }, SHAPE))).toMatch(/unknown option `toString`/);
  });

  it('leaves what is not a plain object to the checks of its type', () => {
    for (const value of [undefined, null, 'token', 3, [1], () => {}]) {
      expect(() => checkKeys(value, SHAPE)).not.toThrow();
    }
  });
});

describe('closest', () => {
  it('forgives case, a swap, an edit per three characters', () => {
    expect(closest('TIMEOUTMS', ['timeoutMs'])).toBe('timeoutMs');
    expect(closest('maxTiemoutMs', ['timeoutMs', 'maxTimeoutMs'])).toBe('maxTimeoutMs');
    expect(closest('listn', ['listen', 'dialect'])).toBe('listen');
    expect(closest('bogus', ['timeoutMs', 'headers'])).toBeUndefined();
  });
});

it('a shape that leaves out a key of its interface does not compile', () => {
  interface Options {
    a?: number;
    b?: string;
  }
  const full = { a: true, b: true } satisfies OptionKeys<Options>;
  // @ts-expect-error `b` is missing: typecheck fails until the shape names it.
  const missing = { a: true } satisfies OptionKeys<Options>;
  // @ts-expect-error `c` is not an option of the interface.
  const extra = { a: true, b: true, c: true } satisfies OptionKeys<Options>;
  expect([full, missing, extra]).toHaveLength(3);
});
