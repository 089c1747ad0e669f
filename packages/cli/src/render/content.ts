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
  if (structured !== undefined) terminal.print(JSON.stringify(structured, null, 2));
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
        `${terminal.out('dim', `[${block.type}, ${block.mimeType}]`)} saved to ${path}`,
      );
      return;
    }
    case 'resource_link': {
      const about = [block.title ?? block.name, block.mimeType].filter(Boolean).join(', ');
      terminal.print(`${terminal.out('dim', '[link]')} ${block.uri}${about ? ` (${about})` : ''}`);
      return;
    }
    case 'resource':
      await printContents(block.resource, terminal, files);
      return;
    default:
      terminal.print(JSON.stringify(block));
  }
}

/** One item of a resource: its text under its URI, or its bytes saved to a file. */
export async function printContents(
  contents: ResourceContents,
  terminal: Terminal,
  files: MediaFiles,
): Promise<void> {
  const about = contents.mimeType ? `, ${contents.mimeType}` : '';
  if ('text' in contents) {
    terminal.print(terminal.out('dim', `[resource ${contents.uri}${about}]`));
    terminal.print(contents.text);
    return;
  }
  const path = await files.save(contents.blob, contents.mimeType);
  terminal.print(`${terminal.out('dim', `[resource ${contents.uri}${about}]`)} saved to ${path}`);
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
  if (result.description) terminal.print(terminal.out('dim', result.description));
  for (const message of result.messages) {
    terminal.print(terminal.out('bold', `${message.role}:`));
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
