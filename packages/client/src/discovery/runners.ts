/**
 * Whether a program is on this machine's PATH, found the way a spawn without a shell finds it
 * (PATHEXT on Windows). node:fs is loaded only when discovery runs a package.
 */
import { delimiter, join } from 'node:path';

/** The full path of `program` on `path`, or undefined. */
export async function findProgram(
  program: string,
  path = process.env['PATH'] ?? '',
): Promise<string | undefined> {
  const { access, constants } = await import('node:fs/promises');
  const extensions =
    process.platform === 'win32' ? (process.env['PATHEXT'] ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    for (const extension of extensions) {
      const candidate = join(dir, program + extension);
      try {
        await access(candidate, constants.X_OK);
        return candidate;
      } catch {
        // Not here: the next directory.
      }
    }
  }
  return undefined;
}
