/**
 * A tool listing, whichever binding brought it: a bare array or `{ "tools": [...] }` of the HTTP
 * binding's tool definitions (the gRPC binding's `Tool` messages are turned into the same shape).
 * Each tool keeps its `@type`, also exposed as `category`; `redeem` with `@type: system` is the
 * promise redeemer.
 */
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';
import type { Tool } from '../../core/types.ts';

export function isRedeemTool(tool: Tool): boolean {
  return tool.name === 'redeem' && tool.category === 'system';
}

/** Tools from a listing, or undefined when the value is no listing at all. */
export function toolsOf(value: unknown): { tools: Tool[]; dropped: string[] } | undefined {
  const items = Array.isArray(value)
    ? value
    : isObject(value) && Array.isArray(value['tools'])
      ? value['tools']
      : undefined;
  if (!items) return undefined;
  const tools: Tool[] = [];
  const dropped: string[] = [];
  for (const item of items) {
    if (!isObject(item) || typeof item['name'] !== 'string' || item['name'] === '') {
      dropped.push(JSON.stringify(item).slice(0, 80));
      continue;
    }
    tools.push(toTool(item, item['name']));
  }
  return { tools, dropped };
}

function toTool(item: JsonObject, name: string): Tool {
  const tool = {
    ...item,
    name,
    inputSchema: isObject(item['inputSchema']) ? item['inputSchema'] : { type: 'object' },
  } as Tool;
  const kind = item['@type'];
  if (typeof kind === 'string') tool.category = kind;
  return tool;
}
