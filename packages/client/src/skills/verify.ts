/**
 * A file's bytes as `resources/read` gave them (text as UTF-8, a blob base64-decoded), checked
 * against the manifest: size first (cheap, and a huge file is refused before it is hashed), then
 * the digest.
 */
import { sha256 } from '../core/digest.ts';
import { SkillVerificationError } from '../core/errors.ts';
import { isObject } from '../core/jsonrpc.ts';
import type { SkillResource } from './entry.ts';

/** The raw bytes of a content item, or undefined when it has neither text nor a valid blob. */
export function bytesOf(content: unknown): Uint8Array | undefined {
  if (!isObject(content)) return undefined;
  if (typeof content['text'] === 'string') return Buffer.from(content['text'], 'utf8');
  const blob = content['blob'];
  // Buffer.from skips what is not base64; a blob it would silently shorten is refused instead.
  if (typeof blob !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(blob) || blob.length % 4 !== 0)
    return undefined;
  return Buffer.from(blob, 'base64');
}

/** Throws unless `bytes` are the manifest's `resource`. */
export function verifyBytes(
  bytes: Uint8Array,
  resource: SkillResource,
  where: { skill: string; url: string },
): void {
  const fail = (check: 'size' | 'digest', detail: string) =>
    new SkillVerificationError(
      check,
      detail,
      { skill: where.skill, file: resource.uri },
      { url: where.url },
    );
  if (bytes.byteLength !== resource.size) {
    throw fail(
      'size',
      `${resource.uri} is ${bytes.byteLength} bytes, the entry says ${resource.size}`,
    );
  }
  const digest = `sha256:${sha256(bytes, 'hex')}`;
  if (digest !== resource.digest) {
    throw fail('digest', `${resource.uri} hashes to ${digest}, the entry says ${resource.digest}`);
  }
}
