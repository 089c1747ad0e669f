/**
 * A URL elicitation: the page the server wants the user to visit, shown whole with its host, for
 * the user to open themselves. The CLI never opens, fetches or prefetches it.
 */
import type { ElicitationResult, HandlerContext, UrlElicitation } from '@toolwire/client';
import { printable, visible } from '../printable.ts';
import type { Terminal } from '../terminal.ts';

export async function askUrl(
  request: UrlElicitation,
  context: HandlerContext,
  terminal: Terminal,
): Promise<ElicitationResult> {
  const prompts = await import('@clack/prompts');
  const common = {
    input: terminal.streams.stdin,
    output: terminal.streams.stderr,
    signal: context.signal,
  };
  // The prompts write to stderr themselves: the server's words are cleaned on the way in.
  const host = visible(new URL(request.url).host);
  prompts.intro(`${visible(context.server.name)} asks you to open a page on ${host}:`, common);
  if (request.message !== '') prompts.log.message(printable(request.message), common);
  prompts.log.message(terminal.err('underline', visible(request.url)).text, common);
  const action = await prompts.select({
    ...common,
    message: 'Open it in your browser and finish there, then say so here.',
    options: [
      { value: 'accept' as const, label: 'Done: I opened it' },
      { value: 'decline' as const, label: 'Decline' },
      { value: 'cancel' as const, label: 'Cancel' },
    ],
  });
  if (prompts.isCancel(action) || action === 'cancel') {
    prompts.cancel('Cancelled.', common);
    return { action: 'cancel' };
  }
  prompts.outro(action === 'accept' ? 'Waiting for the server.' : 'Declined.', common);
  return { action };
}
