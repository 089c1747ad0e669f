import { expect, test } from 'vitest';
import { firstDifference, readFrontmatter } from './frontmatter.ts';

test('the frontmatter is compared field by field', async () => {
  const read = await readFrontmatter(
    '---\nname: pdf\ndescription: "PDFs."\nmeta: {a: [1, 2]}\n---\n# Body\n',
  );
  expect(read).toEqual({
    frontmatter: { name: 'pdf', description: 'PDFs.', meta: { a: [1, 2] } },
    body: '# Body\n',
  });
  const served = (read as { frontmatter: Record<string, unknown> }).frontmatter;
  expect(firstDifference(served, { name: 'pdf', description: 'PDFs.', meta: { a: [1, 2] } })).toBe(
    undefined,
  );
  expect(firstDifference(served, { name: 'pdf', description: 'PDFs.', meta: { a: [1] } })).toBe(
    'meta',
  );
  expect(firstDifference(served, { name: 'pdf', description: 'PDFs.' })).toBe('meta');
});

test('no frontmatter, or one that is not a YAML mapping, is a problem', async () => {
  expect(await readFrontmatter('# no frontmatter')).toHaveProperty('problem');
  expect(await readFrontmatter('---\n- a\n---\n')).toHaveProperty('problem');
  expect(await readFrontmatter('---\na: [\n---\n')).toHaveProperty('problem');
});
