/**
 * The command line: `toolwire inspect|call|read|prompt|demo`, each with the target options, and
 * what every failure prints and exits with. Words after the first `--` are the command of a local
 * server and never reach the argument parser.
 */
import { LEGACY_VERSIONS, MODERN_VERSIONS } from '@toolwire/client';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { callCommand } from './commands/call.ts';
import { inspectCommand } from './commands/inspect.ts';
import { promptCommand } from './commands/prompt.ts';
import { readCommand } from './commands/read.ts';
import { describeError } from './describe-error.ts';
import { EXIT, exitCodeFor, UsageError } from './exit-codes.ts';
import { type ConnectionOptions, type Session, withSession } from './session.ts';
import { resolveTarget, type TargetOptions } from './target.ts';
import { type Streams, Terminal } from './terminal.ts';

interface CommonOptions extends ConnectionOptions, TargetOptions {
  json?: boolean;
  color?: boolean;
  out?: string;
}

const PROTOCOLS = ['auto', 'modern', 'legacy', ...MODERN_VERSIONS, ...LEGACY_VERSIONS];
const DIALECTS = [
  'auto',
  'mcp',
  'mcp-stateless',
  'mcp-stateful',
  'mcp-sse',
  'mcp-lite',
  'webtools',
];

const TARGETS = `
A server is named one of three ways:
  URL                            https://example.com/mcp
  --config FILE --server NAME    an entry of an mcpServers file (Claude, Cursor, VS Code, ...)
  -- COMMAND ARGS…               a local server, started as a child process (stdio)

Exit status: 0 done, 1 the tool reported a failure, 2 usage error, 3 server out of reach,
4 the server answered with an error, 5 a question no one could answer, 130 interrupted.`;

export async function main(
  argv: readonly string[],
  streams: Streams = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const dash = argv.indexOf('--');
  const words = dash === -1 ? [...argv] : argv.slice(0, dash);
  const command = dash === -1 ? undefined : argv.slice(dash + 1);
  let exitCode: number = EXIT.ok;

  /** Runs one command against its target, and turns any failure into a message and a status. */
  const run =
    (
      name: string,
      body: (
        session: Session,
        words: string[],
        options: CommonOptions & Record<string, unknown>,
      ) => Promise<number>,
    ) =>
    async (words: string[], options: CommonOptions & Record<string, unknown>) => {
      const terminal = new Terminal(streams, {
        json: options.json === true,
        color: options.color !== false,
      });
      try {
        const { target, rest } = await resolveTarget(words, command, options);
        exitCode = await withSession(target, options, terminal, (session) =>
          body(session, rest, options),
        );
      } catch (error) {
        exitCode = report(error, terminal, name);
      }
    };

  const program = new Command('toolwire')
    .description(
      'Inspect any MCP server (or MCP-lite, Webtools), call its tools, answer its questions.',
    )
    .version(packageJson.version)
    .exitOverride()
    // The command list shows each command's own usage line rather than its [words...].
    .configureHelp({ subcommandTerm: (command) => `${command.name()} ${command.usage()}` })
    .configureOutput({
      writeOut: (text) => streams.stdout.write(text),
      writeErr: (text) => streams.stderr.write(text),
    })
    .addHelpText('after', TARGETS);

  withTargetOptions(
    program.command('inspect').description('show how the server was reached and all it offers'),
  )
    .usage('[options] URL | --config FILE --server NAME | -- COMMAND ARGS…')
    .action(
      run('inspect', (session, rest, options) => {
        if (rest.length > 0)
          throw new UsageError(`inspect takes no more words, got ${rest.join(' ')}`);
        return inspectCommand(session, options.protocol ?? 'auto');
      }),
    );

  withTargetOptions(
    program
      .command('call')
      .description("call a tool, with its progress, status and the server's questions"),
  )
    .usage('[options] URL TOOL [key=value | key:=JSON | {JSON}]…  (or TOOL … -- COMMAND ARGS…)')
    .option('--args <json>', 'the arguments as one JSON object (key=value words go on top)')
    .option('--task', 'ask for a task where the tool allows one (2025-11-25 servers)')
    .action(
      run('call', (session, rest, options) =>
        callCommand(session, rest, {
          args: options['args'] as string | undefined,
          task: options['task'] === true,
          out: options.out,
        }),
      ),
    );

  withTargetOptions(
    program.command('read').description('read a resource: its text, or its bytes saved to a file'),
  )
    .usage('[options] URL URI  (or URI -- COMMAND ARGS…)')
    .action(run('read', (session, rest, options) => readCommand(session, rest, options.out)));

  withTargetOptions(
    program.command('prompt').description("get a prompt's messages, its arguments filled in"),
  )
    .usage('[options] URL NAME [key=value]…  (or NAME … -- COMMAND ARGS…)')
    .action(run('prompt', (session, rest, options) => promptCommand(session, rest, options.out)));

  program
    .command('demo')
    .description('a guided tour against the bundled reference server')
    .option('-y, --yes', 'without a terminal, answer the demo form with its defaults')
    .option('--no-color', 'no colours')
    .action(async (options: { yes?: boolean; color?: boolean }) => {
      const terminal = new Terminal(streams, { color: options.color !== false });
      try {
        const { demo } = await import('./commands/demo.ts');
        exitCode = await demo(
          terminal,
          { yes: options.yes === true, color: options.color !== false },
          main,
        );
      } catch (error) {
        exitCode = report(error, terminal, 'demo');
      }
    });

  try {
    await program.parseAsync(words, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end here too; commander has already printed what it had to say.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    throw error;
  }
  return exitCode;
}

function withTargetOptions(command: Command): Command {
  return command
    .argument('[words...]')
    .option('--config <file>', 'an mcpServers JSON file (Claude Desktop, Cursor, VS Code, ...)')
    .option('--server <name>', 'the server of --config to use (needed when it lists several)')
    .option('-H, --header <line>', 'an HTTP header, "Name: value" (repeatable)', collect, [])
    .addOption(
      new Option('--protocol <revision>', 'auto, modern, legacy, or a revision').choices(PROTOCOLS),
    )
    .addOption(
      new Option('--dialect <name>', 'speak this dialect without probing for the others').choices(
        DIALECTS,
      ),
    )
    .option('--timeout <ms>', 'how long a call may go without progress', positiveInteger)
    .option(
      '--root <dir>',
      'a directory the server may work in (repeatable; default: here)',
      collect,
      [],
    )
    .option(
      '-y, --yes',
      'without a terminal, accept forms that have defaults for every required field',
    )
    .option(
      '--out <dir>',
      'where images, audio and binary resources are saved (default: a temp dir)',
    )
    .option('--json', 'print one JSON document on stdout')
    .option('--no-color', 'no colours');
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function positiveInteger(value: string): string {
  if (!/^\d+$/.test(value) || Number(value) <= 0) {
    throw new InvalidArgumentError('milliseconds, a whole number above 0');
  }
  return value;
}

/** Prints why the command failed (and, in JSON mode, a document saying so); the exit status. */
function report(error: unknown, terminal: Terminal, command: string): number {
  const exitCode = exitCodeFor(error);
  const message = describeError(error);
  if (terminal.json) {
    const name = error instanceof Error ? error.name : 'Error';
    const code = (error as { code?: unknown }).code;
    terminal.printJson({
      error: { name, ...(typeof code === 'string' ? { code } : {}), message, exitCode },
    });
  }
  terminal.fail(message);
  if (exitCode === EXIT.usage && !terminal.json) terminal.say(`(see toolwire ${command} --help)`);
  return exitCode;
}
