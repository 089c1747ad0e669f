/**
 * `toolwire call TARGET TOOL [key=value…]`: one tool call, with the server's progress as a bar,
 * a deferred call's status (task or promise) on a live line, streamed parts printed as they come,
 * and the result printed by content kind. Ctrl-C cancels the call on the server.
 */
import type { CallStatus, Progress, Tool } from '@toolwire/client';
import { toolArguments } from '../arguments.ts';
import { EXIT, type ExitCode, UsageError } from '../exit-codes.ts';
import { visible } from '../printable.ts';
import { printCallResult } from '../render/content.ts';
import { MediaFiles } from '../render/media-files.ts';
import type { Session } from '../session.ts';

export interface CallOptions {
  /** Arguments as one JSON object. */
  args?: string | undefined;
  /** Ask for a task where the tool allows one (2025-11-25 `taskSupport: optional`). */
  task?: boolean | undefined;
  /** Where media are saved. */
  out?: string | undefined;
  /** Replace files already in `out`. */
  force?: boolean | undefined;
}

const BAR_CELLS = 24;

export async function callCommand(
  session: Session,
  words: readonly string[],
  options: CallOptions,
): Promise<ExitCode> {
  const { client, target, terminal, signal } = session;
  const [name, ...rest] = words;
  if (name === undefined) throw new UsageError('name the tool to call');
  const tools = await client.listTools({ signal });
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new UsageError(`${target.label} has no tool "${name}" (${offered(tools)})`);
  const args = toolArguments(tool, rest, options.args);
  let streamed = false;
  let open = false;
  const result = await client.callTool(name, args, {
    signal,
    task: options.task === true,
    onProgress: (progress) =>
      void terminal.live(progressLine(progress), `progress ${plainProgress(progress)}`),
    // Deferred work only: an answer the handlers are giving needs no status line.
    onStatus: (status) => {
      if (status.handle) void terminal.live(statusLine(status), statusLine(status));
    },
    onPartial: (blocks) => {
      for (const block of blocks) {
        if (block.type !== 'text' || terminal.json) continue;
        terminal.write(block.text);
        open = !block.text.endsWith('\n');
        streamed = true;
      }
    },
  });
  terminal.endLive();
  if (open) terminal.print();
  if (terminal.json) terminal.printJson(result);
  else {
    const files = new MediaFiles(options.out, name, { force: options.force });
    await printCallResult(result, terminal, files, streamed);
  }
  if (result.isError) {
    terminal.fail(`${visible(name)} reported a failure`);
    return EXIT.toolFailed;
  }
  return EXIT.ok;
}

/** `████████░░░░░░░░ 3/5 step 3`; without a total, the count alone. */
export function progressLine({ progress, total, message }: Progress): string {
  const suffix = message ? ` ${message}` : '';
  if (total === undefined || total <= 0) return `${progress}${suffix}`;
  const filled = Math.round(Math.min(1, Math.max(0, progress / total)) * BAR_CELLS);
  return `${'█'.repeat(filled)}${'░'.repeat(BAR_CELLS - filled)} ${progress}/${total}${suffix}`;
}

function plainProgress({ progress, total, message }: Progress): string {
  return `${progress}${total === undefined ? '' : `/${total}`}${message ? ` ${message}` : ''}`;
}

/** `task working: 40% done`, `promise pending`. */
export function statusLine({ state, handle, message }: CallStatus): string {
  return `${handle?.kind ?? 'call'} ${state.replace('_', ' ')}${message ? `: ${message}` : ''}`;
}

function offered(tools: readonly Tool[]): string {
  if (tools.length === 0) return 'it offers none';
  const names = tools.map((tool) => visible(tool.name));
  return `it has ${names.slice(0, 12).join(', ')}${names.length > 12 ? `, and ${names.length - 12} more` : ''}`;
}
