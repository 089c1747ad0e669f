import { expect, test } from 'vitest';
import { rendersStructuredContent } from './structured.ts';

const text = (value: string) => ({ type: 'text' as const, text: value });

test('a text block that is structuredContent as JSON, however formatted, renders it', () => {
  const structured = { sum: 5, terms: [2, 3] };
  for (const shown of [JSON.stringify(structured), JSON.stringify(structured, null, 2)]) {
    expect(
      rendersStructuredContent({ content: [text(shown)], structuredContent: structured }),
    ).toBe(true);
  }
});

test('a text block that is the `content` of a { content } structuredContent renders it', () => {
  expect(
    rendersStructuredContent({ content: [text('Hello')], structuredContent: { content: 'Hello' } }),
  ).toBe(true);
  expect(
    rendersStructuredContent({
      content: [text('[1,2]')],
      structuredContent: { content: [1, 2] },
    }),
  ).toBe(true);
});

test('a summary, other data beside `content`, or no text block: not rendered', () => {
  expect(
    rendersStructuredContent({ content: [text('Two cities')], structuredContent: { n: 2 } }),
  ).toBe(false);
  expect(
    rendersStructuredContent({
      content: [text('Hello')],
      structuredContent: { content: 'Hello', lang: 'en' },
    }),
  ).toBe(false);
  expect(rendersStructuredContent({ content: [], structuredContent: { n: 2 } })).toBe(false);
  expect(rendersStructuredContent({ content: [text('x')] })).toBe(false);
});
