/**
 * Whether a result's text already says what its `structuredContent` says: servers are asked to
 * send structured results both ways, and a model that reads the same data twice pays for it twice.
 * Both adapters hand `structuredContent` to the model only when no text block renders it.
 */
import type { CallToolResult } from '../core/types.ts';

/**
 * True when a text block is `structuredContent` as JSON (however formatted), or, for a
 * `structuredContent` of the shape `{ content }` alone, is that `content` (its text, or its JSON).
 */
export function rendersStructuredContent(
  result: Pick<CallToolResult, 'content' | 'structuredContent'>,
): boolean {
  const structured = result.structuredContent;
  if (structured === undefined) return false;
  const whole = JSON.stringify(structured);
  const inner = onlyContent(structured);
  return result.content.some((block) => {
    if (block.type !== 'text') return false;
    if (sameJson(block.text, whole)) return true;
    if (inner === undefined) return false;
    return typeof inner === 'string'
      ? block.text === inner
      : sameJson(block.text, JSON.stringify(inner));
  });
}

/** The `content` of `{ content: X }` and nothing else: other keys would be data the text lacks. */
function onlyContent(structured: unknown): unknown {
  if (typeof structured !== 'object' || structured === null || Array.isArray(structured)) {
    return undefined;
  }
  const keys = Object.keys(structured);
  return keys.length === 1 && keys[0] === 'content'
    ? (structured as { content: unknown }).content
    : undefined;
}

function sameJson(text: string, json: string): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === json;
  } catch {
    return false;
  }
}
