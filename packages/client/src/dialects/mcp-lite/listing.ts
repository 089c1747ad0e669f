/**
 * Tool discovery: `POST {base}/listtools` (or `/tools`) with `{}`. The answer is a bare array in
 * the seed's text and `{ "tools": [...] }` in its example; both are read. Each tool keeps its
 * `@type`, also exposed as `category`; `redeem` with `@type: system` is the promise redeemer.
 */
import type { Deadline } from '../../deadline.ts';
import { fromJsonRpcError } from '../../errors.ts';
import { isObject, type JsonObject } from '../../jsonrpc.ts';
import { excerpt, readText, send, statusError } from '../../transport/http.ts';
import { withRetry } from '../../transport/retry.ts';
import type { Tool } from '../../types.ts';
import { errorResponse } from '../answer.ts';
import type { McpLiteConfig } from './index.ts';

export type Listing =
  | { kind: 'tools'; url: string; tools: Tool[]; dropped: string[] }
  /** Not an MCP-lite listing; `summary` says what came back instead, for the probe report. */
  | { kind: 'miss'; summary: string };

/** Answers that say "not here" rather than "broken": the next endpoint, or the next dialect. */
const NOT_HERE = new Set([400, 404, 405, 406, 415, 501]);

export function isRedeemTool(tool: Tool): boolean {
  return tool.name === 'redeem' && tool.category === 'system';
}

/** Lists at one URL. Throws what says nothing about the dialect (auth, 429, 5xx, the deadline). */
export function listAt(config: McpLiteConfig, url: string, deadline: Deadline): Promise<Listing> {
  return withRetry(
    async (): Promise<Listing> => {
      const response = await send(config.dispatcher, {
        url,
        method: 'POST',
        headers: {
          ...config.headers,
          accept: 'application/json',
          'content-type': 'application/json',
        },
        body: '{}',
        signal: deadline.signal,
      });
      const text = await readText(response, config.maxResponseBytes, url, deadline.signal);
      const where = { url, method: 'tools/list' };
      const summary = `POST ${url}: HTTP ${response.status}`;
      if (response.status < 200 || response.status >= 300) {
        const rpc = errorResponse(text);
        if (NOT_HERE.has(response.status)) {
          return {
            kind: 'miss',
            summary:
              rpc && 'error' in rpc ? `${summary}, JSON-RPC error ${rpc.error.code}` : summary,
          };
        }
        if (rpc && 'error' in rpc)
          throw fromJsonRpcError(rpc.error, { ...where, status: response.status });
        throw statusError(response, text, where);
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return { kind: 'miss', summary: `${summary}, not JSON: ${excerpt(text)}` };
      }
      const listed = toolsOf(value);
      if (!listed)
        return { kind: 'miss', summary: `${summary}, not a tool list: ${excerpt(text)}` };
      return { kind: 'tools', url, ...listed };
    },
    config.retry,
    { idempotent: true, deadline },
  );
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
