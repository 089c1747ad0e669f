import { EXIT, type ExitCode, UsageError } from '../exit-codes.ts';
import { visible } from '../printable.ts';
import { printPrompt } from '../render/content.ts';
import { MediaFiles, type MediaOptions } from '../render/media-files.ts';
import type { Session } from '../session.ts';

/** `toolwire prompt TARGET NAME [key=value…]`: a prompt's messages, its arguments filled in. */
export async function promptCommand(
  session: Session,
  words: readonly string[],
  out: string | undefined,
  media: MediaOptions = {},
): Promise<ExitCode> {
  const { client, target, terminal, signal } = session;
  const [name, ...rest] = words;
  if (name === undefined) throw new UsageError('name the prompt to get');
  const prompts = await client.listPrompts({ signal });
  const prompt = prompts.find((candidate) => candidate.name === name);
  if (!prompt) {
    const names = prompts.map((candidate) => visible(candidate.name));
    throw new UsageError(
      `${target.label} has no prompt "${name}" (${names.length > 0 ? `it has ${names.join(', ')}` : 'it offers none'})`,
    );
  }
  // Prompt arguments are strings, always.
  const args: Record<string, string> = {};
  for (const word of rest) {
    const equals = word.indexOf('=');
    if (equals <= 0) throw new UsageError(`expected key=value, got "${word}"`);
    args[word.slice(0, equals)] = word.slice(equals + 1);
  }
  const missing = (prompt.arguments ?? []).filter((arg) => arg.required && !(arg.name in args));
  if (missing.length > 0) {
    throw new UsageError(`${name} needs ${missing.map((arg) => `${arg.name}=…`).join(' ')}`);
  }
  const result = await client.getPrompt(name, args, { signal });
  if (terminal.json) terminal.printJson(result);
  else await printPrompt(result, terminal, new MediaFiles(out, name, media));
  return EXIT.ok;
}
