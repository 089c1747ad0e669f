/**
 * SHA-256 of a text or of bytes, base64url or hex. node:crypto is fetched on first use: loading
 * it costs about a sixth of the package's import, and most programs never need a digest.
 */
export function sha256(data: string | Uint8Array, encoding: 'base64url' | 'hex'): string {
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256').update(data).digest(encoding);
}
