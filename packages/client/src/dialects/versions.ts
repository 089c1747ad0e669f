/** What the client speaks: the revisions of each era, and the choices the options offer. */

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

/**
 * Which dialect to speak. `'auto'` finds out; `'mcp'` tries only MCP's; a dialect's name (what
 * `client.dialect` reports) speaks that one without probing for the others.
 */
export const DIALECTS = [
  'auto',
  'mcp',
  'mcp-stateless',
  'mcp-stateful',
  'mcp-sse',
  'mcp-lite',
  'webtools',
] as const;
export type DialectChoice = (typeof DIALECTS)[number];
