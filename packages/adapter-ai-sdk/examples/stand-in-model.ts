/**
 * A stand-in for your provider's model (`openai('gpt-5')`, `anthropic(...)`, ...), so that the
 * examples run without a key: the AI SDK's mock model, answering each turn from a script, for
 * `generateText` and `streamText` alike.
 */
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

type Turn = { call: Record<string, unknown> } | { say: string };
type Answer = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer P>
    ? P
    : never;

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

export function standInModel(...turns: Turn[]): MockLanguageModelV4 {
  let turn = 0;
  const answer = (): Answer => {
    const next = turns[turn++] ?? { say: '(the script ran out)' };
    if ('say' in next) {
      return {
        content: [{ type: 'text', text: next.say }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    }
    return {
      content: Object.entries(next.call).map(([toolName, input], index) => ({
        type: 'tool-call' as const,
        toolCallId: `turn${turn}-${index}`,
        toolName,
        input: JSON.stringify(input),
      })),
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    };
  };
  return new MockLanguageModelV4({
    doGenerate: async () => answer(),
    doStream: async () => {
      const { content, finishReason } = answer();
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
