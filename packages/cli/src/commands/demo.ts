/**
 * `toolwire demo` (what `npm start` runs): the bundled reference server on a free port, speaking
 * both eras at one URL, and the CLI's own commands against it, each shown as it would be typed:
 * inspect, a call with progress, a task, a form to fill in. Without a terminal the form takes its
 * defaults. It ends with how to point the CLI at a real server.
 */
import { EXIT } from '../exit-codes.ts';
import type { Terminal } from '../terminal.ts';

export interface DemoOptions {
  yes: boolean;
  color: boolean;
}

type Main = (argv: readonly string[], streams: Terminal['streams']) => Promise<number>;

/** The form the demo's server asks for: one field of each kind a form may have. */
const SURVEY = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', default: 'Ada' },
    language: {
      type: 'string',
      title: 'Favourite language',
      enum: ['TypeScript', 'Python', 'Go', 'Rust'],
      default: 'TypeScript',
    },
    years: { type: 'integer', title: 'Years of programming', minimum: 0, maximum: 80, default: 3 },
    newsletter: { type: 'boolean', title: 'Subscribe to the newsletter', default: false },
  },
  required: ['name', 'language'],
};

export async function demo(terminal: Terminal, options: DemoOptions, main: Main): Promise<number> {
  const { startReferenceServer } = await import('@toolwire/reference-server');
  await using server = await startReferenceServer({ dualEra: true });
  const url = server.url;
  const yes = options.yes || !terminal.interactive;
  const shared = options.color ? [] : ['--no-color'];
  const heading = (text: string) => {
    terminal.print();
    terminal.print(terminal.out('bold', text));
  };

  terminal.print(terminal.out('bold', 'toolwire demo'));
  terminal.print(
    `The bundled reference server is listening at ${url}. It speaks MCP 2026-07-28 and the\n2025 revisions at the same URL; toolwire finds out which to use by itself.`,
  );

  const steps: Array<[string, string[]]> = [
    ['1. What does the server offer, and how did we reach it?', ['inspect', url]],
    ['2. A call that reports its progress:', ['call', url, 'progress', 'steps=5', 'delayMs=300']],
    [
      '3. A slow job the server runs as a task; the client polls it until it is done (Ctrl-C cancels it on the server):',
      ['call', url, 'slow_task', 'ms=2000', 'text=the long way round', 'pollIntervalMs=250'],
    ],
    [
      yes
        ? '4. The server asks a question. No one is at a terminal, so --yes answers with the defaults:'
        : "4. The server asks you a question (here at 2025-11-25, where it comes on the call's stream):",
      [
        'call',
        url,
        'elicit',
        'message=Tell the server about yourself',
        `requestedSchema:=${JSON.stringify(SURVEY)}`,
        '--protocol',
        '2025-11-25',
        ...(yes ? ['--yes'] : []),
      ],
    ],
  ];
  for (const [title, argv] of steps) {
    heading(title);
    terminal.print(terminal.out('dim', `$ toolwire ${argv.map(quote).join(' ')}`));
    const code = await main([...argv, ...shared], terminal.streams);
    if (code !== EXIT.ok) return code;
  }

  heading('Now point it at a real server:');
  for (const line of [
    'npx toolwire inspect https://your.server/mcp',
    'npx toolwire call https://your.server/mcp TOOL key=value',
    'npx toolwire inspect -H "Authorization: Bearer $TOKEN" https://your.server/mcp',
    'npx toolwire inspect --config ~/.cursor/mcp.json --server NAME',
    'npx toolwire inspect -- npx -y @modelcontextprotocol/server-everything',
    'npx toolwire --help',
  ]) {
    terminal.print(`  ${line}`);
  }
  return EXIT.ok;
}

/** A word as a shell would need it. */
function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
