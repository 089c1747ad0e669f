/**
 * Runs one command: the terminal set up, the target resolved, the session opened and closed, and
 * any failure turned into a message (a JSON document too, in JSON mode) and an exit status.
 */
import { fileAuthStore } from './auth-store.ts';
import { callCommand } from './commands/call.ts';
import { inspectCommand } from './commands/inspect.ts';
import { loginCommand, logoutCommand } from './commands/login.ts';
import { promptCommand } from './commands/prompt.ts';
import { readCommand } from './commands/read.ts';
import { skillCommand } from './commands/skill.ts';
import { skillsCommand } from './commands/skills.ts';
import { CliError, EXIT, UsageError } from './exit-codes.ts';
import { describeError, exitCodeFor } from './failure.ts';
import { type ConnectionOptions, type Session, withSession } from './session.ts';
import { resolveTarget, type TargetOptions } from './target.ts';
import { type Streams, Terminal } from './terminal.ts';
import { tokenizerChoice } from './tool-tokens.ts';

export type CommandName =
  | 'inspect'
  | 'call'
  | 'read'
  | 'prompt'
  | 'skills'
  | 'skill'
  | 'login'
  | 'logout';

export interface CommandOptions extends ConnectionOptions, TargetOptions {
  json?: boolean;
  color?: boolean;
  out?: string;
  /** Let `--out` replace files already there. */
  force?: boolean;
  /** call: the arguments as one JSON object. */
  args?: string;
  /** call: ask for a task. */
  task?: boolean;
  /** login: open the browser (`--no-browser` says no). */
  browser?: boolean;
  /** skill: take a dynamic skill, whose files cannot be verified. */
  dynamic?: boolean;
  /** inspect: count the tools' tokens (`true` is o200k). */
  tokens?: string | boolean;
}

const COMMANDS: Record<
  Exclude<CommandName, 'login' | 'logout'>,
  (session: Session, rest: string[], options: CommandOptions) => Promise<number>
> = {
  inspect: (session, rest, options) => {
    if (rest.length > 0) throw new UsageError(`inspect takes no more words, got ${rest.join(' ')}`);
    return inspectCommand(session, options.protocol ?? 'auto', tokenizerChoice(options.tokens));
  },
  call: (session, rest, options) =>
    callCommand(session, rest, {
      args: options.args,
      task: options.task,
      out: options.out,
      force: options.force,
    }),
  read: (session, rest, options) => readCommand(session, rest, options.out, options),
  prompt: (session, rest, options) => promptCommand(session, rest, options.out, options),
  skills: (session, rest) => skillsCommand(session, rest),
  skill: (session, rest, options) =>
    skillCommand(session, rest, {
      out: options.out,
      force: options.force,
      dynamic: options.dynamic,
    }),
};

export async function runCommand(
  name: CommandName,
  input: {
    words: string[];
    command: string[] | undefined;
    options: CommandOptions;
    streams: Streams;
  },
): Promise<number> {
  const { words, command, options, streams } = input;
  const terminal = new Terminal(streams, {
    json: options.json === true,
    color: options.color !== false,
  });
  try {
    const { target, rest } = await resolveTarget(words, command, options);
    if (name === 'login' || name === 'logout') {
      if (target.kind !== 'http') throw new UsageError(`${name} is for servers behind a URL`);
      if (rest.length > 0)
        throw new UsageError(`${name} takes no more words, got ${rest.join(' ')}`);
      const store = fileAuthStore();
      if (name === 'logout') return await logoutCommand(target, terminal, store);
      const login = { browser: options.browser !== false };
      return await withSession(target, { ...options, login }, terminal, (session) =>
        loginCommand(session, store),
      );
    }
    // Only the skill commands declare the extension: the others send what they always sent.
    const skills = name === 'skills' || name === 'skill';
    return await withSession(target, { ...options, skills }, terminal, (session) =>
      COMMANDS[name](session, rest, options),
    );
  } catch (error) {
    return report(error, terminal, name);
  }
}

export async function runDemo(
  options: CommandOptions,
  streams: Streams,
  main: (argv: readonly string[], streams: Streams) => Promise<number>,
): Promise<number> {
  const terminal = new Terminal(streams, { color: options.color !== false });
  try {
    const { demo } = await import('./commands/demo.ts');
    return await demo(
      terminal,
      { yes: options.yes === true, color: options.color !== false },
      main,
    );
  } catch (error) {
    return report(error, terminal, 'demo');
  }
}

export async function runDiscover(
  words: string[],
  options: CommandOptions,
  streams: Streams,
): Promise<number> {
  const terminal = new Terminal(streams, {
    json: options.json === true,
    color: options.color !== false,
  });
  try {
    const { discoverCommand } = await import('./commands/discover.ts');
    return await discoverCommand(words, terminal);
  } catch (error) {
    return report(error, terminal, 'discover');
  }
}

export async function runAdd(
  words: string[],
  options: CommandOptions & { as?: string },
  streams: Streams,
): Promise<number> {
  const terminal = new Terminal(streams, {
    json: options.json === true,
    color: options.color !== false,
  });
  try {
    const { addCommand } = await import('./commands/add.ts');
    return await addCommand(words, options, terminal);
  } catch (error) {
    return report(error, terminal, 'add');
  }
}

/** Prints why the command failed (and, in JSON mode, a document saying so); the exit status. */
function report(error: unknown, terminal: Terminal, command: string): number {
  const exitCode = exitCodeFor(error);
  const message = describeError(error);
  if (terminal.json) {
    // A failure the CLI wrapped (connecting) is named by the client's error inside it.
    const shown = error instanceof CliError && error.cause instanceof Error ? error.cause : error;
    const name = shown instanceof Error ? shown.name : 'Error';
    const code = (shown as { code?: unknown }).code;
    terminal.printJson({
      error: { name, ...(typeof code === 'string' ? { code } : {}), message, exitCode },
    });
  }
  terminal.fail(message);
  if (exitCode === EXIT.usage && !terminal.json) terminal.say(`(see toolwire ${command} --help)`);
  return exitCode;
}
