/**
 * Where a skill's files may be: under its root (the SKILL.md uri minus `/SKILL.md`), never above
 * it. A server that lists `../secrets` or `%2e%2e/secrets` must not make the client read beside
 * the skill, so every segment is decoded before it is judged.
 */

/** The skill's root: its SKILL.md uri minus `/SKILL.md`; undefined when the uri does not end so. */
export function skillRoot(skillUri: string): string | undefined {
  return skillUri.endsWith('/SKILL.md') ? skillUri.slice(0, -'/SKILL.md'.length) : undefined;
}

/**
 * The path of `uri` under `root` (`scripts/run.sh`), or undefined when it is not under it: a
 * segment that is empty, `.` or `..` once decoded, one that decodes to a slash or a backslash,
 * a query or a fragment.
 */
export function pathUnder(root: string, uri: string): string | undefined {
  if (!uri.startsWith(`${root}/`)) return undefined;
  const path = uri.slice(root.length + 1);
  return safePath(path) ? path : undefined;
}

/** A relative path every segment of which names something below where it starts. */
export function safePath(path: string): boolean {
  if (path === '' || /[?#\\]/.test(path)) return false;
  for (const segment of path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    if (decoded === '' || decoded === '.' || decoded === '..' || /[/\\]/.test(decoded))
      return false;
  }
  return true;
}

/**
 * Whether the root itself climbs nowhere: `skill://a/../b/SKILL.md` is refused however the server
 * means it. The authority carries no meaning and is not judged.
 */
export function safeRoot(root: string): boolean {
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]*\//.exec(root);
  if (!scheme) return false;
  return safePath(root.slice(scheme[0].length));
}

/** The last segment of the root: what the frontmatter's name must be. */
export function lastSegment(root: string): string {
  return root.slice(root.lastIndexOf('/') + 1);
}
