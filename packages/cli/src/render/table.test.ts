import { describe, expect, it } from 'vitest';
import { table, wrap } from './table.ts';

describe('tables and wrapping', () => {
  it('sizes columns to their cells, leaves out empty ones, and cuts the last to the width', () => {
    expect(
      table(
        ['NAME', 'TITLE', 'DESCRIPTION'],
        [
          ['echo', '', 'Returns the text'],
          ['add', '', 'Adds two numbers and says so at length'],
        ],
        30,
      ),
    ).toEqual([
      '  NAME  DESCRIPTION',
      '  echo  Returns the text',
      '  add   Adds two numbers and …',
    ]);
  });

  it('breaks text between words at the width, keeping its own line breaks', () => {
    expect(wrap('one two three four\nfive', 9, '  ')).toEqual([
      'one two',
      '  three',
      '  four',
      '  five',
    ]);
    expect(wrap('one two three', Number.POSITIVE_INFINITY)).toEqual(['one two three']);
  });
});
