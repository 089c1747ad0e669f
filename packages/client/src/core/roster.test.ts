import { describe, expect, it } from 'vitest';
import { Roster } from './roster.ts';

const item = (name: string) => ({ name, slot: -1 });
type Item = ReturnType<typeof item>;

describe('Roster', () => {
  it('holds each item once and gives it back on delete, whatever the order', () => {
    const roster = new Roster<'slot', Item>('slot');
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(item) as [Item, Item, Item, Item];
    for (const each of [a, b, c, d, b]) roster.add(each);
    expect(roster.size).toBe(4);
    // The last item takes the place of the first; it must still be found where it went.
    expect(roster.delete(a)).toBe(true);
    expect(roster.delete(a)).toBe(false);
    expect(roster.delete(d)).toBe(true);
    expect(roster.snapshot().map((each) => each.name)).toEqual(['c', 'b']);
    expect(roster.delete(b)).toBe(true);
    expect(roster.delete(c)).toBe(true);
    expect(roster.size).toBe(0);
    expect([a, b, c, d].map((each) => each.slot)).toEqual([-1, -1, -1, -1]);
  });

  it('hands out lists of its own: changing the roster while going through one is safe', () => {
    const roster = new Roster<'slot', Item>('slot');
    const items = ['a', 'b', 'c'].map(item);
    for (const each of items) roster.add(each);
    for (const each of roster.snapshot()) roster.delete(each);
    expect(roster.size).toBe(0);
    for (const each of items) roster.add(each);
    expect(roster.filter((each) => each.name !== 'b').map((each) => each.name)).toEqual(['a', 'c']);
  });
});
