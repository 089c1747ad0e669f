/**
 * Redis keys: the application's prefix, the kind of record, and a SHA-256 of what names it. A
 * hash keeps secrets (a task id, a URL with a key in its query) out of key names, which `SCAN`,
 * `MONITOR` and slow logs show to anyone who can look.
 */
import { createHash } from 'node:crypto';

export function keyOf(prefix: string, kind: string, ...parts: string[]): string {
  return `${prefix}${kind}:${createHash('sha256').update(parts.join('\n')).digest('base64url')}`;
}
