/**
 * A sampling request, answered by the person at the terminal instead of a model: the request is
 * shown (system prompt, messages, tools offered, token limit), and the typed text goes back as
 * the assistant's message. Declining is the spec's user rejection.
 */
import type {
  HandlerContext,
  SamplingContent,
  SamplingRequest,
  SamplingResult,
} from '@toolwire/client';
import { UnansweredError } from '../exit-codes.ts';
import { printable, visible } from '../printable.ts';
import type { Terminal } from '../terminal.ts';

/** The model name a typed answer goes back under. */
export const HUMAN_MODEL = 'human (toolwire CLI)';

export async function askSampling(
  request: SamplingRequest,
  context: HandlerContext,
  terminal: Terminal,
): Promise<SamplingResult> {
  const prompts = await import('@clack/prompts');
  const common = {
    input: terminal.streams.stdin,
    output: terminal.streams.stderr,
    signal: context.signal,
  };
  // The prompts write to stderr themselves: the server's words are cleaned on the way in.
  prompts.intro(
    printable(
      `${visible(context.server.name)} asks for a model's answer (up to ${request.maxTokens} tokens):`,
    ),
    common,
  );
  prompts.log.message(printable(describeSampling(request)), common);
  const answer = await prompts.text({
    ...common,
    message: 'Your answer (leave it empty to decline)',
  });
  if (prompts.isCancel(answer) || answer === undefined || answer.trim() === '') {
    prompts.cancel('Declined.', common);
    throw new UnansweredError(`you declined ${context.server.name}'s sampling request`);
  }
  prompts.outro('Sent.', common);
  return {
    role: 'assistant',
    content: { type: 'text', text: answer },
    model: HUMAN_MODEL,
    stopReason: 'endTurn',
  };
}

/** The request as lines a person can read. */
export function describeSampling(request: SamplingRequest): string {
  const lines: string[] = [];
  if (request.systemPrompt) lines.push(`system: ${request.systemPrompt}`);
  for (const message of request.messages) {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    lines.push(`${message.role}: ${blocks.map(describeBlock).join(' ')}`);
  }
  if (request.tools && request.tools.length > 0) {
    lines.push(`tools offered: ${request.tools.map((tool) => visible(tool.name)).join(', ')}`);
  }
  return lines.join('\n');
}

function describeBlock(block: SamplingContent): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'tool_use':
      return `[calls ${visible(block.name)} ${JSON.stringify(block.input)}]`;
    case 'tool_result':
      return `[result of ${block.toolUseId}]`;
    default:
      return `[${block.type}, ${block.mimeType}]`;
  }
}
