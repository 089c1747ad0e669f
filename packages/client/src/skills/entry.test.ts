import { expect, test } from 'vitest';
import { SkillVerificationError } from '../core/errors.ts';
import { checkEntry, MAX_SKILL_BYTES, MAX_SKILL_FILES } from './entry.ts';
import { pathUnder } from './paths.ts';

const URI = 'skill://s/pdf/SKILL.md';
const DIGEST = `sha256:${'0'.repeat(64)}`;

function entry(files: number, size = 0, extra: object = {}): object {
  return {
    uri: URI,
    frontmatter: { name: 'pdf', description: 'PDFs.' },
    resources: [
      { uri: URI, digest: DIGEST, size },
      ...Array.from({ length: files - 1 }, (_, index) => ({
        uri: `skill://s/pdf/f/${index}`,
        digest: DIGEST,
        size: 0,
      })),
    ],
    ...extra,
  };
}

function check(raw: unknown): string {
  try {
    checkEntry(raw, 'srv');
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(SkillVerificationError);
    return (error as SkillVerificationError).check;
  }
}

test('up to the limits is accepted, past them refused', () => {
  expect(check(entry(MAX_SKILL_FILES))).toBe('ok');
  expect(check(entry(MAX_SKILL_FILES + 1))).toBe('limits');
  expect(check(entry(1, MAX_SKILL_BYTES))).toBe('ok');
  expect(check(entry(1, MAX_SKILL_BYTES + 1))).toBe('limits');
});

test('resources must be a list or "dynamic"', () => {
  expect(check(entry(1, 0, { resources: 'dynamic' }))).toBe('ok');
  for (const resources of [undefined, 'all', {}, null, 3]) {
    expect(check(entry(1, 0, { resources }))).toBe('entry');
  }
  // The list is complete: SKILL.md's own entry is in it.
  expect(check(entry(1, 0, { resources: [] }))).toBe('entry');
});

test('the name is the last segment of the skill path', () => {
  expect(check({ ...entry(1), frontmatter: { name: 'docx', description: 'x' } })).toBe('name');
});

test('a file outside the root is refused, encoded or not', () => {
  for (const uri of [
    'skill://s/pdf/../x',
    'skill://s/pdf/%2e%2e/x',
    'skill://s/pdf/%2E%2e/x',
    'skill://s/pdf/a/%2f..%2fx',
    'skill://s/pdf/a%5c..%5cx',
    'skill://s/pdfx/y',
    'skill://s/other/y',
  ]) {
    const raw = entry(1);
    (raw as { resources: object[] }).resources.push({ uri, digest: DIGEST, size: 0 });
    expect(check(raw)).toBe('path');
  }
  expect(pathUnder('skill://s/pdf', 'skill://s/pdf/a/b.txt')).toBe('a/b.txt');
});

test('the held entry is frozen: no one extends the manifest after the checks', () => {
  const skill = checkEntry(entry(2), 'srv');
  expect(Object.isFrozen(skill.resources)).toBe(true);
  expect(Object.isFrozen(skill.frontmatter)).toBe(true);
  expect(skill.server).toBe('srv');
});
