/**
 * A scripted language model for real AI SDK loops: the AI SDK's own mock model (`ai/test`),
 * answering each step with the tool calls or the text the test lists, through `doGenerate` and
 * `doStream` alike. What the loop sent to the model (tools, tool outputs) is kept for assertions.
 */
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

export type CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type StreamResult = Awaited<ReturnType<MockLanguageModelV4['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

/** One model turn: call these tools, or answer with this text. */
export type Step = { calls: Array<{ tool: string; input: unknown }> } | { text: string };

const usage: GenerateResult['usage'] = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

export class ScriptedModel extends MockLanguageModelV4 {
  /** The options of every model call, in order, whichever way it was made. */
  readonly calls: CallOptions[] = [];

  constructor(steps: readonly Step[]) {
    const next = (options: CallOptions): GenerateResult => {
      this.calls.push(options);
      const index = this.calls.length - 1;
      const step = steps[index];
      if (!step) throw new Error(`the script has no step ${index + 1}`);
      if ('text' in step) {
        return {
          content: [{ type: 'text', text: step.text }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      }
      return {
        content: step.calls.map((call, position) => ({
          type: 'tool-call' as const,
          toolCallId: `call-${index + 1}-${position + 1}`,
          toolName: call.tool,
          input: JSON.stringify(call.input),
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    };
    super({
      doGenerate: async (options) => next(options),
      doStream: async (options) => {
        const { content, finishReason } = next(options);
        const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
        for (const part of content) {
          if (part.type === 'text') {
            parts.push(
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: part.text },
              { type: 'text-end', id: 't' },
            );
          } else if (part.type === 'tool-call') parts.push(part);
        }
        parts.push({ type: 'finish', finishReason, usage });
        return { stream: convertArrayToReadableStream(parts) };
      },
    });
  }

  /** The tool outputs the model was shown in its `turn`-th call (1-based), by tool call id. */
  outputsSeen(turn: number): Map<string, unknown> {
    const seen = new Map<string, unknown>();
    for (const message of this.calls[turn - 1]?.prompt ?? []) {
      if (message.role !== 'tool') continue;
      for (const part of message.content) {
        if (part.type === 'tool-result') seen.set(part.toolCallId, part.output);
      }
    }
    return seen;
  }

  /** The tool names offered to the model in its `turn`-th call. */
  toolsOffered(turn: number): string[] {
    return (this.calls[turn - 1]?.tools ?? []).map((tool) => tool.name).sort();
  }
}
