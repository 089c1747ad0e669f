import { EXIT, type ExitCode } from '../exit-codes.ts';
import { inspect, printInspection } from '../render/inspect.ts';
import type { Session } from '../session.ts';
import { type TokenizerChoice, toolCost } from '../tool-tokens.ts';

/** `toolwire inspect TARGET`: what the server is, speaks and offers. */
export async function inspectCommand(
  session: Session,
  protocol: string,
  tokenizer?: TokenizerChoice,
): Promise<ExitCode> {
  const { client, target, terminal, signal } = session;
  const transport = target.kind === 'stdio' ? 'stdio' : 'http';
  const found = await inspect(client, target.label, transport, protocol, signal);
  if (tokenizer) found.tokens = await toolCost(found.tools, tokenizer);
  if (terminal.json) terminal.printJson(found);
  else printInspection(found, terminal);
  return EXIT.ok;
}
