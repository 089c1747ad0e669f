/**
 * Tool discovery over HTTP: `POST {base}/listtools` (or `/tools`) with `{}`. The answer is a bare
 * array in the seed's text and `{ "tools": [...] }` in its example; both are read (`toolsOf`).
 */
import type { Deadline } from '../../../core/deadline.ts';
import { fromJsonRpcError } from '../../../core/wire-codes.ts';
import { errorResponse } from '../../../wire/channels/json-reply.ts';
import { excerpt, readText, send, statusError } from '../../../wire/transport/http.ts';
import type { BindingListing, McpLiteConfig } from '../binding.ts';
import { toolsOf } from '../listing.ts';

export type Listing =
  | Extract<BindingListing, { kind: 'tools' }>
  /** Not an MCP-lite listing; `summary` says what came back instead, for the probe report. */
  | { kind: 'miss'; summary: string };

/** Answers that say "not here" rather than "broken": the next endpoint, or the next dialect. */
const NOT_HERE = new Set([400, 404, 405, 406, 415, 501]);

/** Lists at one URL. Throws what says nothing about the dialect (auth, 429, 5xx, the deadline). */
export async function listAt(
  config: McpLiteConfig,
  url: string,
  deadline: Deadline,
): Promise<Listing> {
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
        summary: rpc && 'error' in rpc ? `${summary}, JSON-RPC error ${rpc.error.code}` : summary,
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
  if (!listed) return { kind: 'miss', summary: `${summary}, not a tool list: ${excerpt(text)}` };
  return { kind: 'tools', url, ...listed };
}
