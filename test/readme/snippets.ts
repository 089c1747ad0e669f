/**
 * The TypeScript snippets of the project's READMEs, as programs: each `ts` block becomes a module
 * that imports, from `stand-ins.ts`, the names it uses and leaves to the reader (`url`, `model`,
 * `client`, ...), with `http://localhost:3000` pointed at a live server. A block that only
 * outlines an API says so in an HTML comment right above it: `<!-- outline: why -->`. A block that
 * imports `@toolwire/redis` needs a Redis to run (`REDIS_URL`), and only that block is skipped
 * without one.
 */
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

export interface Snippet {
  /** `README.md:60`, where the block starts. */
  where: string;
  code: string;
  /** Set for an outline: the reason it gives. */
  outline?: string;
  /** Set when it runs only against a Redis: it imports `@toolwire/redis`. */
  redis?: true;
}

/** Names a snippet may use without declaring them: what `stand-ins.ts` exports. */
const STAND_INS = [
  'url',
  'client',
  'github',
  'jira',
  'model',
  'messages',
  'askUser',
  'openBrowser',
  'showForm',
  'myModel',
  'workspace',
  'db',
  'render',
  'showBar',
  'done',
] as const;

export async function snippetsOf(root: string, files: string[]): Promise<Snippet[]> {
  const snippets: Snippet[] = [];
  for (const file of files) {
    const lines = (await readFile(join(root, file), 'utf8')).split('\n');
    const name = relative(root, join(root, file));
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]?.trim() !== '```ts') continue;
      const start = i;
      const body: string[] = [];
      while (++i < lines.length && lines[i]?.trim() !== '```') body.push(lines[i] ?? '');
      const above = lines.slice(Math.max(0, start - 2), start).join('\n');
      const outline = /<!--\s*outline:\s*(.+?)\s*-->/.exec(above)?.[1];
      const code = body.join('\n');
      snippets.push({
        where: `${name}:${start + 1}`,
        code,
        ...(outline ? { outline } : {}),
        ...(/from '@toolwire\/redis'/.test(code) ? { redis: true as const } : {}),
      });
    }
  }
  return snippets;
}

/** The stand-ins `code` uses without declaring them. */
export function standInsOf(code: string): string[] {
  const bare = code.replace(/\/\/.*$/gm, '').replace(/'(?:[^'\\\n]|\\.)*'/g, "''");
  return STAND_INS.filter((name) => {
    const used = new RegExp(`(?<![.\\w$])${name}\\b(?!\\s*:(?!:))`).test(bare);
    const declared = new RegExp(
      [
        `\\b(?:const|let|var|using|function|class)\\s+${name}\\b`,
        // Destructured: const { messages } = ..., and named imports.
        `\\b(?:const|let|var|import)\\s*(?:type\\s*)?[{[][^}\\]]*\\b${name}\\b[^}\\]]*[}\\]]`,
      ].join('|'),
    ).test(bare);
    return used && !declared;
  });
}

/** The module that runs a snippet: its stand-ins imported, the server's origin put in. */
export function programOf(snippet: Snippet, origin: string): string {
  const names = standInsOf(snippet.code);
  const langchain = /from '(?:langchain|@langchain\/[^']+)'/.test(snippet.code);
  const imports = names.map((name) =>
    name === 'model' ? `${langchain ? 'chatModel' : 'aiModel'} as model` : name,
  );
  const code = snippet.code.replaceAll('http://localhost:3000', origin);
  return [
    `// ${snippet.where}`,
    `import { finish, ${imports.join(', ')} } from '../stand-ins.ts';`,
    code,
    '',
    'await finish();',
    '',
  ].join('\n');
}
