/**
 * Results as a person reads them: text as it is, structured content as indented JSON, links and
 * embedded resources with their URIs, and media (images, audio, blobs) saved to files whose paths
 * are printed, since a terminal cannot show them.
 */
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  ReadResourceResult,
  ResourceContents,
} from '@toolwire/client';
import { jsonText, printable, visible } from '../printable.ts';
import type { Terminal } from '../terminal.ts';
import type { MediaFiles } from './media-files.ts';

/**
 * Prints a tool's result. `streamed` is true when its text already went out as partials: the
 * text blocks hold the same words joined, so they are not printed again.
 */
export async function printCallResult(
  result: CallToolResult,
  terminal: Terminal,
  files: MediaFiles,
  streamed = false,
): Promise<void> {
  const structured = result.structuredContent;
  const sameAsStructured = (text: string) => structured !== undefined && sameJson(text, structured);
  for (const block of result.content) {
    if (block.type === 'text' && (streamed || sameAsStructured(block.text))) continue;
    await printBlock(block, terminal, files);
  }
  if (structured !== undefined) terminal.print(jsonText(structured));
}

export async function printBlock(
  block: ContentBlock,
  terminal: Terminal,
  files: MediaFiles,
): Promise<void> {
  switch (block.type) {
    case 'text':
      terminal.print(block.text);
      return;
    case 'image':
    case 'audio': {
      const path = await files.save(block.data, block.mimeType);
      terminal.print(
        terminal.out('dim', `[${block.type}, ${visible(block.mimeType)}]`),
        ` saved to ${path}`,
      );
      return;
    }
    case 'resource_link': {
      // A link is shown as the text it is: whatever it hides (an OSC 8 target, say) written out.
      const about = [printable(block.title ?? block.name), visible(block.mimeType ?? '')]
        .filter(Boolean)
        .join(', ');
      terminal.print(
        terminal.out('dim', '[link]'),
        ` ${visible(block.uri)}${about ? ` (${about})` : ''}`,
      );
      return;
    }
    case 'resource':
      await printContents(block.resource, terminal, files);
      return;
    default:
      terminal.print(jsonText(block, 0));
  }
}

/** One item of a resource: its text under its URI, or its bytes saved to a file. */
export async function printContents(
  contents: ResourceContents,
  terminal: Terminal,
  files: MediaFiles,
): Promise<void> {
  const about = contents.mimeType ? `, ${visible(contents.mimeType)}` : '';
  const heading = terminal.out('dim', `[resource ${visible(contents.uri)}${about}]`);
  if ('text' in contents) {
    terminal.print(heading);
    terminal.print(contents.text);
    return;
  }
  const path = await files.save(contents.blob, contents.mimeType);
  terminal.print(heading, ` saved to ${path}`);
}

export async function printResource(
  result: ReadResourceResult,
  terminal: Terminal,
  files: MediaFiles,
): Promise<void> {
  for (const contents of result.contents) await printContents(contents, terminal, files);
}

export async function printPrompt(
  result: GetPromptResult,
  terminal: Terminal,
  files: MediaFiles,
): Promise<void> {
  if (result.description) terminal.print(terminal.out('dim', printable(result.description)));
  for (const message of result.messages) {
    terminal.print(terminal.out('bold', `${visible(message.role)}:`));
    await printBlock(message.content, terminal, files);
  }
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}
