/**
 * A tool call as an async iterable: what the call's callbacks report, in order, then the final
 * result. Node's `events.on` does the queueing; stopping the iteration early aborts the call.
 */
import { EventEmitter, on } from 'node:events';
import type { CallStatus, CallToolResult, ContentBlock, Progress } from '../core/types.ts';

export type ToolStreamEvent =
  /** A part of the result, as the server streamed it. */
  | { type: 'partial'; content: ContentBlock[] }
  | { type: 'progress'; progress: Progress }
  /** Where a deferred call stands. */
  | { type: 'status'; status: CallStatus }
  /** The final result; always the last event. */
  | { type: 'result'; result: CallToolResult };

/** The callbacks a call reports through, and the signal that stops it. */
export interface StreamHooks {
  signal: AbortSignal;
  onPartial(content: ContentBlock[]): void;
  onProgress(progress: Progress): void;
  onStatus(status: CallStatus): void;
}

/** The caller's own callbacks still hear everything the iterable yields. */
interface CallerHooks {
  signal?: AbortSignal | undefined;
  onPartial?: ((content: ContentBlock[]) => void) | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  onStatus?: ((status: CallStatus) => void) | undefined;
}

export async function* streamOf(
  call: (hooks: StreamHooks) => Promise<CallToolResult>,
  caller: CallerHooks,
): AsyncGenerator<ToolStreamEvent, void, undefined> {
  const events = new EventEmitter();
  const stop = new AbortController();
  const iterator = on(events, 'event', { close: ['end'] });
  let over = false;
  const yielded = (event: ToolStreamEvent) => {
    if (!over) events.emit('event', event);
  };
  const running = call({
    signal: caller.signal ? AbortSignal.any([caller.signal, stop.signal]) : stop.signal,
    onPartial: (content) => {
      caller.onPartial?.(content);
      yielded({ type: 'partial', content });
    },
    onProgress: (progress) => {
      caller.onProgress?.(progress);
      yielded({ type: 'progress', progress });
    },
    onStatus: (status) => {
      caller.onStatus?.(status);
      yielded({ type: 'status', status });
    },
  }).then(
    (result) => {
      yielded({ type: 'result', result });
      if (!over) events.emit('end');
    },
    (error: unknown) => {
      if (!over) events.emit('error', error);
    },
  );
  try {
    for await (const [event] of iterator) yield event as ToolStreamEvent;
  } finally {
    over = true;
    stop.abort();
    await running;
  }
}
