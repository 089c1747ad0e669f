/**
 * A streamed MCP-lite answer, whichever binding carried it: each partial reported as it arrives
 * (to `onPartial` as content blocks, or to `onProgress` as a count), every sign of life restarting
 * the call's timeout, and the result the parts add up to once the final message says it is over.
 * The HTTP binding's `message` / `heartbeat` / `done` events and the gRPC binding's messages
 * without `meta`, heartbeats and final message all come here.
 */
import type { Deadline } from '../../core/deadline.ts';
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';
import type { ContentBlock, Progress } from '../../core/types.ts';
import { toToolResult } from './content.ts';

export interface PartialsContext {
  deadline: Deadline;
  /** Whether a heartbeat or a partial restarts the call's timeout. */
  extendOnLife: boolean;
  /** Each partial's text, as it arrives. */
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Each partial's content, as it arrives. */
  onPartial?: ((content: ContentBlock[]) => void) | undefined;
}

export class Partials {
  readonly #context: PartialsContext;
  #text = '';
  readonly #items: unknown[] = [];
  #count = 0;

  constructor(context: PartialsContext) {
    this.#context = context;
  }

  /** A heartbeat: the server is alive and working. */
  life(): void {
    if (this.#context.extendOnLife) this.#context.deadline.extend();
  }

  /** One partial: `{"partial": ...}` as the seed writes it, `{ content: [...] }`, or the part itself. */
  add(data: unknown): void {
    const context = this.#context;
    this.life();
    const partial = isObject(data) && 'partial' in data ? data['partial'] : data;
    const added: unknown[] =
      typeof partial === 'string'
        ? [partial]
        : isObject(data) && Array.isArray(data['content'])
          ? data['content']
          : [partial];
    if (typeof partial === 'string') this.#text += partial;
    // One by one: a spread of a server's array past ~120k items overflows the stack.
    else for (const item of added) this.#items.push(item);
    this.#count += 1;
    // A caller who takes the parts gets them whole; one who follows progress, a count.
    if (context.onPartial) context.onPartial(contentOf(added));
    else
      context.onProgress?.({
        progress: this.#count,
        message: typeof partial === 'string' ? partial : undefined,
      });
  }

  /**
   * The result, given the final message (its `_meta`, and from some servers the complete result):
   * a final message with content is the whole result, the partials were its preview.
   */
  result(final: JsonObject): JsonObject {
    if (final['content'] !== undefined) return final;
    const content =
      this.#text === '' ? this.#items : [{ type: 'text', text: this.#text }, ...this.#items];
    return { ...final, content };
  }
}

/** A partial's items as typed content blocks, normalised as the final result's will be. */
function contentOf(items: unknown[]): ContentBlock[] {
  return toToolResult({ content: items }, false)['content'] as unknown as ContentBlock[];
}
