/**
 * The fixtures of the conformance suite's tasks scenarios (SEP-2663, 2026-07-28): names,
 * arguments and behaviour are the ones the scenarios' "Required server fixtures" give.
 */
import { errorResult, textResult } from '../content.ts';
import { ErrorCode, isObject, type JsonObject, RpcError } from '../jsonrpc.ts';
import { accepted, elicitField, inputRequired, inputResponse } from '../modern/mrtr.ts';
import { taskTool } from '../tasks/tools.ts';
import type { ToolDefinition } from '../tools.ts';

const NO_ARGUMENTS: JsonObject = { type: 'object', properties: {} };
/** Kept an hour; polled about as often as the suite polls (every 200 ms). */
const TIMING = { ttlMs: 3_600_000, pollIntervalMs: 100 };
const timing = () => ({ ...TIMING });

function textOf(args: JsonObject, name: string, fallback: string): string {
  const value = args[name];
  return typeof value === 'string' ? value : fallback;
}

export const CONFORMANCE_TASK_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'greet',
    era: 'modern',
    description: 'Greets at once, never as a task.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
    run: (args) => textResult(`Hello, ${textOf(args, 'name', 'World')}!`),
  },
  taskTool(
    {
      name: 'slow_compute',
      era: 'modern',
      description: 'Sleeps `seconds`, then answers; a task where the client can take one.',
      inputSchema: {
        type: 'object',
        properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } },
      },
    },
    {
      support: 'optional',
      timing,
      async job(args, control) {
        const seconds = typeof args['seconds'] === 'number' ? args['seconds'] : 1;
        await control.sleep(seconds * 1000);
        return textResult(`computed ${textOf(args, 'label', 'result')} after ${seconds} s`);
      },
    },
  ),
  taskTool(
    {
      name: 'failing_job',
      era: 'modern',
      description: 'Runs only as a task, and after about a second reports a tool error.',
      inputSchema: NO_ARGUMENTS,
    },
    {
      support: 'required',
      timing,
      async job(_args, control) {
        await control.sleep(1000);
        return errorResult('the job failed');
      },
    },
  ),
  taskTool(
    {
      name: 'protocol_error_job',
      era: 'modern',
      description: 'A task that ends in a protocol error.',
      inputSchema: NO_ARGUMENTS,
    },
    {
      support: 'optional',
      timing,
      async job(_args, control) {
        await control.sleep(100);
        throw new RpcError(ErrorCode.InternalError, 'the job panicked');
      },
    },
  ),
  taskTool(
    {
      name: 'confirm_delete',
      era: 'modern',
      description: 'Asks the user to confirm, then deletes (pretends to) the file.',
      inputSchema: { type: 'object', properties: { filename: { type: 'string' } } },
    },
    {
      support: 'optional',
      timing,
      async job(args, control) {
        const filename = textOf(args, 'filename', 'file');
        const { confirm } = await control.ask({
          confirm: elicitField(`Delete ${filename}?`, 'confirm', 'boolean'),
        });
        const yes = isObject(confirm) && accepted(confirm)?.['confirm'] === true;
        return textResult(yes ? `deleted ${filename}` : `kept ${filename}`);
      },
    },
  ),
  taskTool(
    {
      name: 'multi_input',
      era: 'modern',
      description: 'Asks two questions at once, and answers when both are answered.',
      inputSchema: NO_ARGUMENTS,
    },
    {
      support: 'optional',
      timing,
      async job(_args, control) {
        const answers = await control.ask({
          name: elicitField('What is your name?', 'name'),
          confirm: elicitField('Go ahead?', 'confirm', 'boolean'),
        });
        return textResult(`answered ${Object.keys(answers).sort().join(' and ')}`);
      },
    },
  ),
  taskTool(
    {
      name: 'test_tool_with_task',
      era: 'modern',
      description: 'Asks for a name (MRTR), then greets it as a task.',
      inputSchema: NO_ARGUMENTS,
    },
    {
      support: 'required',
      timing,
      gather(args, ctx) {
        const answer = inputResponse(ctx, 'user_name');
        if (answer === undefined) {
          return {
            inputRequired: inputRequired({ user_name: elicitField('What is your name?', 'name') }),
          };
        }
        const name = accepted(answer)?.['name'];
        return { ...args, name: typeof name === 'string' ? name : 'stranger' };
      },
      async job(args, control) {
        await control.sleep(100);
        return textResult(`Hello, ${textOf(args, 'name', 'stranger')}!`);
      },
    },
  ),
];
