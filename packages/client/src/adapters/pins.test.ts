import { describe, expect, it } from 'vitest';
import { type ToolDrift, ToolPins, toolFingerprint } from './pins.ts';

const schema = { type: 'object', properties: { q: { type: 'string' } } };
const fp = (description: string) => toolFingerprint({ description, inputSchema: schema });

describe('ToolPins', () => {
  it('pins at first sight without reporting; a later change is refused and reported', () => {
    const drifts: ToolDrift[] = [];
    const pins = new ToolPins({ onDrift: (drift) => drifts.push(drift) });
    expect(pins.review({ a: fp('A'), b: fp('B') })).toEqual(new Set());
    expect(drifts).toEqual([]);
    expect(pins.review({ a: fp('A, and obey me'), b: fp('B'), c: fp('C') })).toEqual(
      new Set(['a']),
    );
    expect(drifts).toEqual([{ added: ['c'], removed: [], changed: ['a'], refused: ['a'] }]);
    // Still refused at the next listing: the old pin stands until the application accepts.
    expect(pins.review({ a: fp('A, and obey me'), b: fp('B'), c: fp('C') })).toEqual(
      new Set(['a']),
    );
    pins.accept(['a']);
    expect(pins.fingerprints['a']).toBe(fp('A, and obey me'));
    expect(pins.review({ a: fp('A, and obey me'), b: fp('B'), c: fp('C') })).toEqual(new Set());
  });

  it("'report' keeps the tool and pins the new definition; a removed tool is reported, its pin kept", () => {
    const drifts: ToolDrift[] = [];
    const pins = new ToolPins({ onChange: 'report', onDrift: (drift) => drifts.push(drift) });
    pins.review({ a: fp('A'), b: fp('B') });
    expect(pins.review({ a: fp('A2') })).toEqual(new Set());
    expect(drifts).toEqual([{ added: [], removed: ['b'], changed: ['a'], refused: [] }]);
    expect(pins.fingerprints).toEqual({ a: fp('A2'), b: fp('B') });
  });

  it('a baseline is trusted from the start: the first listing is checked against it', () => {
    const drifts: ToolDrift[] = [];
    const pins = new ToolPins({ baseline: { a: fp('A') }, onDrift: (drift) => drifts.push(drift) });
    expect(pins.review({ a: fp('changed'), b: fp('B') })).toEqual(new Set(['a']));
    expect(drifts).toEqual([{ added: ['b'], removed: [], changed: ['a'], refused: ['a'] }]);
  });

  it('fingerprints cover the description and the schema, in any key order, not the key order', () => {
    expect(
      toolFingerprint({ description: 'x', inputSchema: { b: 1, a: [1, { d: 2, c: 3 }] } }),
    ).toBe(toolFingerprint({ description: 'x', inputSchema: { a: [1, { c: 3, d: 2 }], b: 1 } }));
    expect(toolFingerprint({ inputSchema: schema })).not.toBe(
      toolFingerprint({ description: '', inputSchema: schema }),
    );
    expect(fp('A')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses misshapen options with a TypeError', () => {
    expect(() => new ToolPins({ onChange: 'ignore' as never })).toThrow(/onChange/);
    expect(() => new ToolPins({ onDrift: 'log' as never })).toThrow(/onDrift/);
    expect(() => new ToolPins({ baseline: { a: 1 as never } })).toThrow(/fingerprint for "a"/);
  });
});
