import { EXIT, type ExitCode, UsageError } from '../exit-codes.ts';
import { printResource } from '../render/content.ts';
import { MediaFiles, type MediaOptions } from '../render/media-files.ts';
import type { Session } from '../session.ts';

/** `toolwire read TARGET URI`: a resource's text, or its bytes saved to a file. */
export async function readCommand(
  session: Session,
  words: readonly string[],
  out: string | undefined,
  media: MediaOptions = {},
): Promise<ExitCode> {
  const { client, terminal, signal } = session;
  const [uri, ...extra] = words;
  if (uri === undefined) throw new UsageError('name the resource to read (its URI)');
  if (extra.length > 0) throw new UsageError(`read takes one URI, got also ${extra.join(' ')}`);
  const result = await client.readResource(uri, { signal });
  if (terminal.json) terminal.printJson(result);
  else await printResource(result, terminal, new MediaFiles(out, 'resource', media));
  return EXIT.ok;
}
