/** The content blocks and tool results every fixture tool builds its answers from. */
import type { JsonObject } from './jsonrpc.ts';

/** A text content block. */
export function text(value: string): JsonObject {
  return { type: 'text', text: value };
}

/** A tool result of one text block. */
export function textResult(value: string): JsonObject {
  return { content: [text(value)] };
}

/** A tool execution error: a result the model can read, not a protocol error. */
export function errorResult(value: string): JsonObject {
  return { content: [text(value)], isError: true };
}
