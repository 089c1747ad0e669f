/** The revisions of each era of MCP, and the `protocolVersion` choices the options offer. */

/** The revisions of each era the client speaks, newest first. */
export const MODERN_VERSIONS = ['2026-07-28'] as const;
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** `'auto'` negotiates; an era or a revision pins it (a pinned revision sends no probe). */
export type ProtocolChoice =
  | 'auto'
  | 'modern'
  | 'legacy'
  | (typeof MODERN_VERSIONS)[number]
  | (typeof LEGACY_VERSIONS)[number];
