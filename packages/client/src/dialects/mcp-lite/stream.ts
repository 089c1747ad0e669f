/**
 * An MCP-lite answer as an event stream (asked for with `Accept: text/event-stream`). Its events
 * are named and carry no JSON-RPC: `message` is a partial (`{"partial": ...}`), `done` the end
 * with the final `_meta` (and, from some servers, the complete result), `error` the server's
 * error, `heartbeat` a sign of life that keeps the call's deadline from running out.
 */
import type { Deadline } from '../../deadline.ts';
import {
  type ErrorContext,
  fromJsonRpcError,
  JsonRpcError,
  MalformedMessageError,
  type McpError,
  StreamTruncatedError,
} from '../../errors.ts';
import { isObject, type JsonObject } from '../../jsonrpc.ts';
import type { HttpResponse } from '../../transport/http.ts';
import { readEvents } from '../../transport/sse.ts';
import type { ContentBlock } from '../../types.ts';
import type { Progress } from '../dialect.ts';
import { toToolResult } from './content.ts';

export interface StreamContext {
  where: ErrorContext & { url: string };
  maxEventSize: number;
  deadline: Deadline;
  /** Whether a heartbeat or a partial restarts the call's timeout. */
  extendOnLife: boolean;
  /** Each partial's text, as it arrives. */
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Each partial's content, as it arrives. */
  onPartial?: ((content: ContentBlock[]) => void) | undefined;
}

/** The result the stream adds up to, or the server's error. */
export type Streamed = { kind: 'result'; result: JsonObject } | { kind: 'error'; error: McpError };

const INTERNAL_ERROR = -32603;

export async function readStream(
  response: HttpResponse,
  context: StreamContext,
): Promise<Streamed> {
  const { where, deadline } = context;
  let text = '';
  const items: unknown[] = [];
  let partials = 0;
  for await (const event of readEvents(response.body as AsyncIterable<Buffer>, {
    url: where.url,
    maxEventSize: context.maxEventSize,
    signal: deadline.signal,
    position: { lastEventId: undefined, retryMs: undefined },
  })) {
    switch (event.event ?? 'message') {
      case 'heartbeat':
        if (context.extendOnLife) deadline.extend();
        break;
      case 'message': {
        const data = parse(event.data, where);
        if (context.extendOnLife) deadline.extend();
        // `{"partial": ...}` as the seed writes it; any other value is the part itself.
        const partial = isObject(data) && 'partial' in data ? data['partial'] : data;
        const added: unknown[] =
          typeof partial === 'string'
            ? [partial]
            : isObject(data) && Array.isArray(data['content'])
              ? data['content']
              : [partial];
        if (typeof partial === 'string') text += partial;
        else items.push(...added);
        partials += 1;
        // A caller who takes the parts gets them whole; one who follows progress, a count.
        if (context.onPartial) context.onPartial(contentOf(added));
        else
          context.onProgress?.({
            progress: partials,
            message: typeof partial === 'string' ? partial : undefined,
          });
        break;
      }
      case 'done': {
        const data = parse(event.data, where);
        const final = isObject(data) ? data : {};
        // A done event with content is the complete result; the partials were its preview.
        if (final['content'] !== undefined) return { kind: 'result', result: final };
        const content = text === '' ? items : [{ type: 'text', text }, ...items];
        return { kind: 'result', result: { ...final, content } };
      }
      case 'error':
        return { kind: 'error', error: streamError(event.data, where) };
    }
  }
  throw new StreamTruncatedError(where);
}

/** A partial's items as typed content blocks, normalised as the final result's will be. */
function contentOf(items: unknown[]): ContentBlock[] {
  return toToolResult({ content: items }, false)['content'] as unknown as ContentBlock[];
}

function parse(data: string, where: ErrorContext): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new MalformedMessageError('invalid JSON in an MCP-lite event', {
      ...where,
      bodyExcerpt: data.slice(0, 200),
    });
  }
}

/**
 * The server's error: a JSON-RPC error object, bare or under `error`; anything else is kept as
 * the message of an internal error.
 */
function streamError(data: string, where: ErrorContext): McpError {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    value = data;
  }
  const error = isObject(value) && isObject(value['error']) ? value['error'] : value;
  if (
    isObject(error) &&
    typeof error['code'] === 'number' &&
    typeof error['message'] === 'string'
  ) {
    return fromJsonRpcError(
      { code: error['code'], message: error['message'], data: error['data'] },
      where,
    );
  }
  const message =
    isObject(error) && typeof error['message'] === 'string' ? error['message'] : String(data);
  return new JsonRpcError(INTERNAL_ERROR, message || 'stream error', { ...where, data: value });
}
