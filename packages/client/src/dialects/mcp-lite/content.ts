/**
 * MCP-lite results as MCP tool results. The seed's content items are whatever the tool returns
 * (`{document_id, title, excerpt}`, with no `type`), so each item that is not one of MCP's five
 * content kinds becomes a text block holding its JSON, and the untyped items themselves become
 * `structuredContent`: adapters always get typed blocks, and nothing the server sent is lost.
 */
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';

const KINDS = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);
/** Result fields that are not the tool's output. */
const ENVELOPE = new Set(['content', 'structuredContent', 'isError', '_meta']);

export function toToolResult(result: JsonObject, isError: boolean): JsonObject {
  const content: JsonObject[] = [];
  const untyped: unknown[] = [];
  for (const item of itemsOf(result)) {
    if (isObject(item) && typeof item['type'] === 'string' && KINDS.has(item['type'])) {
      content.push(item);
    } else if (typeof item === 'string') {
      content.push({ type: 'text', text: item });
    } else {
      untyped.push(item);
      content.push({ type: 'text', text: JSON.stringify(item) });
    }
  }
  const normalised: JsonObject = { ...result, content, isError };
  if (untyped.length > 0 && normalised['structuredContent'] === undefined)
    normalised['structuredContent'] = untyped;
  return normalised;
}

/**
 * The content items: `content` as an array, a single item, or (when a result carries no
 * `content` at all) the result's own fields as one item.
 */
function itemsOf(result: JsonObject): unknown[] {
  const content = result['content'];
  if (Array.isArray(content)) return content;
  if (content !== undefined) return [content];
  const rest = Object.entries(result).filter(([key]) => !ENVELOPE.has(key));
  return rest.length > 0 ? [Object.fromEntries(rest)] : [];
}
