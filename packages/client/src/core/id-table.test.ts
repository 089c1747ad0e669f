import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { IdTable } from './id-table.ts';
import type { RequestId } from './jsonrpc.ts';

describe('IdTable', () => {
  it('keeps 1 and "1" apart, and counts what it holds', () => {
    const table = new IdTable<string>();
    table.set(1, 'number');
    table.set('1', 'string');
    table.set(1, 'number again');
    expect(table.size).toBe(2);
    expect([table.get(1), table.get('1'), table.get(2)]).toEqual([
      'number again',
      'string',
      undefined,
    ]);
    expect(table.delete('1')).toBe(true);
    expect(table.delete('1')).toBe(false);
    expect(table.get(1)).toBe('number again');
    expect(table.size).toBe(1);
  });

  it('takes any id JSON carries: negative, fractional, huge, and any string', () => {
    const table = new IdTable<number>();
    const ids = [0, -1, 1.5, 2 ** 40, 2 ** 31, '__proto__', 'toString', ''];
    for (const [at, id] of ids.entries()) table.set(id, at);
    expect(ids.map((id) => table.get(id))).toEqual(ids.map((_, at) => at));
    expect(table.values().sort()).toEqual(ids.map((_, at) => at));
    table.clear();
    expect(table.size).toBe(0);
    expect(ids.map((id) => table.get(id))).toEqual(ids.map(() => undefined));
  });

  it('keeps an old request while many thousands of later ones come and go', () => {
    const table = new IdTable<string>();
    table.set(5, 'straggler');
    for (let id = 6; id < 20_000; id++) {
      table.set(id, `call ${id}`);
      if (id >= 40) table.delete(id - 34);
    }
    expect(table.get(5)).toBe('straggler');
    expect(table.size).toBe(35);
    expect(table.values()).toContain('straggler');
    expect(table.delete(5)).toBe(true);
    expect(table.get(5)).toBeUndefined();
    expect(table.get(19_999)).toBe('call 19999');
  });

  it('answers as a Map would, whatever the order of ids and operations', () => {
    // A seeded generator: the same sequence every run.
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    const table = new IdTable<number>();
    const model = new Map<RequestId, number>();
    let next = 0;
    const differences: string[] = [];
    for (let step = 0; step < 50_000; step++) {
      const roll = random(100);
      // Mostly ids counting up, some far apart, some strings; deletions of recent ids.
      const id: RequestId =
        roll < 60
          ? next++
          : roll < 75
            ? random(5_000)
            : roll < 85
              ? `s${random(50)}`
              : next - random(80);
      let deleted: [boolean, boolean] | undefined;
      if (random(3) === 0) deleted = [table.delete(id), model.delete(id)];
      else {
        table.set(id, step);
        model.set(id, step);
      }
      const ours = [deleted?.[0], table.get(id), table.size];
      const theirs = [deleted?.[1], model.get(id), model.size];
      if (ours.some((value, at) => value !== theirs[at]))
        differences.push(`step ${step}, id ${String(id)}: ${ours} against ${theirs}`);
    }
    expect(differences).toEqual([]);
    expect(table.values().sort((a, b) => a - b)).toEqual([...model.values()].sort((a, b) => a - b));
  });

  // The reason the table exists (see id-table.ts): with requests coming and going, what a finished
  // one held is collected young. A Map in its place promotes over 4 MB here.
  it('leaves what finished requests held to young collections, however many come and go', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
    const oldSpace = () =>
      getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;
    const table = new IdTable<{ id: number; held: number[] }>();
    const request = (id: number) => table.set(id, { id, held: new Array(64).fill(id) });
    const churn = (from: number, rounds: number, minorEvery: number) => {
      let next = from;
      for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < 32; i++, next++) {
          table.delete(next - 32);
          request(next);
        }
        if (round % minorEvery === 0) gc({ type: 'minor' });
      }
      return next;
    };
    for (let id = 0; id < 32; id++) request(id);
    // A client's table is old by the time it is busy: whatever it keeps is in the old generation.
    const next = churn(32, 100, 1_000);
    gc();
    gc();
    const before = oldSpace();
    // About 38 MB through the table, 32 in flight at a time.
    churn(next, 2_000, 50);
    expect(table.size).toBe(32);
    expect(oldSpace() - before).toBeLessThan(1024 * 1024);
  });
});
