/**
 * How a LangChain agent calls a tool: `invoke` with a tool call, which checks the arguments,
 * runs the tool and wraps the result in a ToolMessage. Shared by the two LangChain tool sets.
 */
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { Session } from './driver.ts';

export function langchainToolSession(
  tools: readonly StructuredToolInterface[],
  close: () => Promise<void>,
): Session {
  let calls = 0;
  return {
    call(name, args = {}) {
      const tool = tools.find((candidate) => candidate.name === name);
      if (!tool) throw new Error(`no tool ${name}`);
      return tool.invoke({ type: 'tool_call', id: `call-${calls++}`, name, args });
    },
    close,
  };
}
