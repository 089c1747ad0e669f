/**
 * The command line: `toolwire inspect|call|read|prompt|skills|skill|demo` and their options. Words after the
 * first `--` are the command of a local server and never reach the argument parser. Only the
 * parser loads at start-up; a command loads the client (and what else it needs) when it runs, so
 * `--help` and a usage error cost no more than Node and commander.
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { EXIT } from './exit-codes.ts';
import type { CommandName, CommandOptions } from './run.ts';
import type { Streams } from './terminal.ts';

const TARGETS = `
A server is named one of these ways:
  URL                            https://example.com/mcp
  registry:NAME                  an MCP Registry entry (--registry URL for a private one)
  CARD-URL                       a Server Card: https://example.com/mcp/server-card
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

  const run = (name: CommandName) => async (words: string[], options: CommandOptions) => {
    const { runCommand } = await import('./run.ts');
    exitCode = await runCommand(name, { words, command, options, streams });
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
    .option(
      '--tokens [tokenizer]',
      "each tool's definition in tokens, full and slim: o200k (default) or claude",
    )
    .action(run('inspect'));

  withTargetOptions(
    program
      .command('call')
      .description("call a tool, with its progress, status and the server's questions"),
  )
    .usage('[options] URL TOOL [key=value | key:=JSON | {JSON}]…  (or TOOL … -- COMMAND ARGS…)')
    .option('--args <json>', 'the arguments as one JSON object (key=value words go on top)')
    .option('--task', 'ask for a task where the tool allows one (2025-11-25 servers)')
    .action(run('call'));

  withTargetOptions(
    program.command('read').description('read a resource: its text, or its bytes saved to a file'),
  )
    .usage('[options] URL URI  (or URI -- COMMAND ARGS…)')
    .action(run('read'));

  withTargetOptions(
    program.command('prompt').description("get a prompt's messages, its arguments filled in"),
  )
    .usage('[options] URL NAME [key=value]…  (or NAME … -- COMMAND ARGS…)')
    .action(run('prompt'));

  withTargetOptions(
    program
      .command('skills')
      .description('list the skills a server offers: server, uri, files, the tools each asks for'),
  )
    .usage('[options] URL  (or -- COMMAND ARGS…)')
    .action(run('skills'));

  withTargetOptions(
    program
      .command('skill')
      .description('fetch a skill, verified; --out DIR writes it under DIR/<server>/<skill path>/'),
  )
    .usage('[options] URL NAME  (or NAME -- COMMAND ARGS…)')
    .option('--dynamic', 'take a dynamic skill, whose files cannot be verified')
    .action(run('skill'));

  withTargetOptions(
    program
      .command('login')
      .description('sign in to a server that wants OAuth; later commands use the tokens'),
  )
    .usage('[options] URL')
    .option('--no-browser', 'print the sign-in URL without opening a browser')
    .action(run('login'));

  withTargetOptions(program.command('logout').description('forget the tokens of a server'))
    .usage('[options] URL')
    .action(run('logout'));

  program
    .command('discover')
    .description('list the MCP servers a domain publishes (AI Catalog, Server Cards)')
    .usage('[options] DOMAIN')
    .argument('[words...]')
    .option('--json', 'print one JSON document on stdout')
    .option('--no-color', 'no colours')
    .action(async (words: string[], options: CommandOptions) => {
      const { runDiscover } = await import('./run.ts');
      exitCode = await runDiscover(words, options, streams);
    });

  program
    .command('add')
    .description('write a registry server (or a card) into an mcpServers file an editor reads')
    .usage('[options] NAME --config FILE')
    .argument('[words...]')
    .option('--config <file>', 'the mcpServers JSON file to write (made if missing)')
    .option('--registry <url>', 'the MCP Registry to look NAME up in (its root)')
    .option('--input <key=value>', 'a value the entry asks for (repeatable)', collect, [])
    .option('--as <key>', 'the name to write the server under')
    .option('--force', 'replace a server of that name')
    .option('--json', 'print one JSON document on stdout')
    .option('--no-color', 'no colours')
    .action(async (words: string[], options: CommandOptions) => {
      const { runAdd } = await import('./run.ts');
      exitCode = await runAdd(words, options, streams);
    });

  program
    .command('demo')
    .description('a guided tour against the bundled reference server')
    .option('-y, --yes', 'without a terminal, answer the demo form with its defaults')
    .option('--no-color', 'no colours')
    .action(async (options: CommandOptions) => {
      const { runDemo } = await import('./run.ts');
      exitCode = await runDemo(options, streams, main);
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
    .option('--protocol <revision>', 'auto, modern, legacy, or a revision such as 2025-11-25')
    .option(
      '--dialect <name>',
      'mcp, mcp-stateless, mcp-stateful, mcp-sse, mcp-lite or webtools, without probing',
    )
    .option('--timeout <ms>', 'how long a call may go without progress', positiveInteger)
    .option(
      '--root <dir>',
      'a directory the server may work in (repeatable; default: .)',
      collect,
      [],
    )
    .option('-y, --yes', 'without a terminal, accept forms whose required fields have defaults')
    .option('--out <dir>', 'where images, audio and binary resources go (default: a temp dir)')
    .option(
      '--force',
      'let --out replace files already there (a symlink is replaced, not followed)',
    )
    .option('--json', 'print one JSON document on stdout')
    .option('--no-color', 'no colours')
    .option('--registry <url>', 'the MCP Registry registry:NAME is looked up in (its root)')
    .option(
      '--input <key=value>',
      'a value a card or registry entry asks for: variable:NAME, header:NAME, env:NAME (repeatable)',
      collect,
      [],
    );
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
