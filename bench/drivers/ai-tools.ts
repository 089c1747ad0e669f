/**
 * What `generateText` does per tool call with an AI SDK tool set, minus the model: validate the
 * input with the tool's schema, run `execute` with a tool call id, turn the output into model
 * parts with `toModelOutput`. Shared by the two AI SDK tool sets measured.
 */
import { asSchema, type Tool, type ToolSet } from 'ai';
import type { Session } from './driver.ts';

export function aiToolSession(tools: ToolSet, close: () => Promise<void>): Session {
  let calls = 0;
  return {
    async call(name, args = {}) {
      // The set's tools take any JSON object: typed here as such.
      const tool = tools[name] as Tool<Record<string, unknown>, unknown> | undefined;
      if (!tool?.execute) throw new Error(`no executable tool ${name}`);
      const checked = await asSchema(tool.inputSchema).validate?.(args);
      if (checked && !checked.success) throw checked.error;
      const toolCallId = `call-${calls++}`;
      const output = await tool.execute(args, { toolCallId, messages: [], context: {} });
      return tool.toModelOutput ? tool.toModelOutput({ toolCallId, input: args, output }) : output;
    },
    close,
  };
}
