/**
 * The client's names mean what docs/architecture.md's "Words" say: one idea, one name. A word the
 * glossary gives to one module's idea may appear in a declared name only where that idea lives,
 * so a reader who greps for `Channel` or `Answer` lands on the thing the glossary describes.
 * Names are read from the sources by a regex: every class, interface and type alias, and every
 * exported function and const; generated code and tests are left out.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'packages', 'client', 'src');

interface Rule {
  /** A word of the glossary's table. */
  word: string;
  /** Where a name with that word may be declared: files, or folders ending in `/`. */
  where: string[];
}

// The words whose idea has one home. A name elsewhere that uses one means something else by it.
const RULES: Rule[] = [
  // What carries an MCP dialect's messages: the Channel interface and the classes that implement it.
  { word: 'channel', where: ['wire/channels/'] },
  // The stdio server process's stream of lines, under the stdio channel.
  { word: 'pipe', where: ['wire/transport/stdio/'] },
  // MCP-lite's HTTP and gRPC mappings, under the MCP-lite dialect.
  { word: 'binding', where: ['dialects/mcp-lite/'] },
  // What a handler gives back for a server's question.
  { word: 'answer', where: ['dialects/dialect.ts', 'handlers/'] },
  // A POST's body that is not an event stream.
  { word: 'reply', where: ['wire/channels/json-reply.ts'] },
  // The bytes exchanged and what faces them; wire codes and sizes are the numbers read off them.
  {
    word: 'wire',
    where: ['wire/transport/', 'core/wire-codes.ts', 'core/wire-size.ts', 'core/deadline.ts'],
  },
];

interface Declared {
  name: string;
  kind: string;
  /** Under `src`, with `/`. */
  file: string;
  /** The declaration's first line, up to its body. */
  head: string;
  exported: boolean;
}

const DECLARATION =
  /^(export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(class|interface|type|function|const)\s+([A-Za-z_$][\w$]*)([^{=\n]*)/gm;

/** Every class, interface and type alias, and every exported function and const. */
async function declarations(): Promise<Declared[]> {
  const found: Declared[] = [];
  for (const entry of await readdir(SRC, { recursive: true })) {
    const file = entry.split('\\').join('/');
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.includes('/gen/')) continue;
    const text = await readFile(join(SRC, entry), 'utf8');
    for (const match of text.matchAll(DECLARATION)) {
      const [, exported, kind, name, head] = match;
      if (!exported && (kind === 'function' || kind === 'const')) continue;
      found.push({ name: name!, kind: kind!, file, head: head!, exported: exported !== undefined });
    }
  }
  return found;
}

/** `StdioPipe` → stdio, pipe; `ACCEPT_RESPONSE` → accept, response; `readJsonReply` → read, json, reply. */
function wordsOf(name: string): string[] {
  return name
    .split(/_|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

const inPlace = (file: string, where: string[]) =>
  where.some((place) => (place.endsWith('/') ? file.startsWith(place) : file === place));

/** What breaks the rules, one line each. */
function violations(declared: Declared[]): string[] {
  const found: string[] = [];
  for (const { name, kind, file, head } of declared) {
    const words = wordsOf(name);
    for (const { word, where } of RULES) {
      if (!words.some((w) => w === word || w === `${word}s`)) continue;
      if (!inPlace(file, where))
        found.push(`${kind} ${name} (${file}) uses "${word}" outside ${where.join(', ')}`);
    }
    // A class named a channel is one: it implements the Channel interface.
    if (
      kind === 'class' &&
      words.at(-1) === 'channel' &&
      !/\bimplements\b.*\bChannel\b/.test(head)
    ) {
      found.push(`class ${name} (${file}) is named a channel but does not implement Channel`);
    }
  }
  // A class, or an exported interface or type, names one thing (a file's own aliases are its own).
  const seen = new Map<string, string>();
  for (const { name, kind, file, exported } of declared) {
    if (kind === 'function' || kind === 'const' || (kind !== 'class' && !exported)) continue;
    const first = seen.get(name);
    if (first === undefined) seen.set(name, file);
    else found.push(`${name} is declared twice: ${first} and ${file}`);
  }
  return found;
}

/** The first column of the Words table. */
async function glossaryWords(): Promise<Set<string>> {
  const doc = await readFile(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const section = doc.split(/^## Words$/m)[1]?.split(/^## /m)[0] ?? '';
  const words = new Set<string>();
  for (const line of section.split('\n')) {
    const cell = /^\|\s*([^|]+?)\s*\|/.exec(line)?.[1];
    if (cell === undefined || cell === 'word' || /^-+$/.test(cell)) continue;
    for (const word of cell.split(/,\s*/)) words.add(word.toLowerCase());
  }
  return words;
}

test('every word the rules hold is in the glossary', async () => {
  const words = await glossaryWords();
  expect(words.size).toBeGreaterThan(20);
  expect(RULES.map((rule) => rule.word).filter((word) => !words.has(word))).toEqual([]);
});

test('the client names each idea as the glossary does', async () => {
  const declared = await declarations();
  expect(declared.length).toBeGreaterThan(200);
  expect(violations(declared)).toEqual([]);
});

test('the check finds a word out of place, a channel that is none, and a name used twice', () => {
  expect(wordsOf('ACCEPT_ANSWER')).toEqual(['accept', 'answer']);
  expect(wordsOf('StreamableHttpSessionChannel')).toEqual([
    'streamable',
    'http',
    'session',
    'channel',
  ]);
  const bad: Declared[] = [
    {
      name: 'LiteAnswer',
      kind: 'type',
      file: 'dialects/mcp-lite/binding.ts',
      head: ' ',
      exported: true,
    },
    { name: 'Answer', kind: 'type', file: 'dialects/dialect.ts', head: ' ', exported: true },
    {
      name: 'GrpcChannel',
      kind: 'class',
      file: 'wire/channels/grpc.ts',
      head: ' implements LiteBinding ',
      exported: true,
    },
    { name: 'Tool', kind: 'interface', file: 'core/types.ts', head: ' ', exported: true },
    { name: 'Tool', kind: 'type', file: 'multi/tools.ts', head: ' ', exported: true },
  ];
  expect(violations(bad)).toEqual([
    'type LiteAnswer (dialects/mcp-lite/binding.ts) uses "answer" outside dialects/dialect.ts, handlers/',
    'class GrpcChannel (wire/channels/grpc.ts) is named a channel but does not implement Channel',
    'Tool is declared twice: core/types.ts and multi/tools.ts',
  ]);
});
