/**
 * toolwire's long-running fixture tools, in both eras: a task of configurable duration, one that
 * must run as a task, one that needs the user midway, and one that fails either way a task can.
 */
import { errorResult, textResult } from '../content.ts';
import { ErrorCode, isObject, type JsonObject, RpcError } from '../jsonrpc.ts';
import type { ToolDefinition } from '../tools.ts';
import { inlineControl, type TaskSupport } from './call.ts';
import type { TaskTiming } from './store.ts';

function number(args: JsonObject, name: string, fallback: number): number {
  const value = args[name];
  return typeof value === 'number' ? value : fallback;
}

/** The TTL and poll interval a call asks for, within bounds that keep tests quick. */
function timing(args: JsonObject): TaskTiming {
  return {
    ttlMs: Math.round(number(args, 'ttlMs', 60_000)),
    pollIntervalMs: Math.round(number(args, 'pollIntervalMs', 50)),
  };
}

const TIMING_PROPERTIES: JsonObject = {
  pollIntervalMs: { type: 'integer', minimum: 1, maximum: 60_000, description: 'Poll interval.' },
  ttlMs: { type: 'integer', minimum: 1, maximum: 3_600_000, description: 'How long it is kept.' },
};

/** A tool that runs as a task where the client can take one. */
export function taskTool(
  definition: Omit<ToolDefinition, 'run' | 'task'>,
  task: TaskSupport,
): ToolDefinition {
  return { ...definition, task, run: (args, ctx) => task.job(args, inlineControl(ctx)) };
}

const PROCEED: JsonObject = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Proceed?',
    requestedSchema: {
      type: 'object',
      properties: { proceed: { type: 'boolean' } },
      required: ['proceed'],
    },
  },
};

export const TASK_TOOLS: readonly ToolDefinition[] = [
  taskTool(
    {
      name: 'slow_task',
      description:
        'Works for `ms` milliseconds, then answers "done: <text>". Runs as a task where the ' +
        'client can take one (2026-07-28: the tasks extension; 2025-11-25: params.task).',
      inputSchema: {
        type: 'object',
        properties: {
          ms: { type: 'integer', minimum: 0, maximum: 600_000 },
          text: { type: 'string' },
          ...TIMING_PROPERTIES,
        },
      },
    },
    {
      support: 'optional',
      timing,
      async job(args, control) {
        await control.sleep(number(args, 'ms', 200));
        return textResult(`done: ${typeof args['text'] === 'string' ? args['text'] : 'ok'}`);
      },
    },
  ),
  taskTool(
    {
      name: 'task_required',
      description:
        'Works for `ms` milliseconds as a task, never otherwise; answers "required done".',
      inputSchema: {
        type: 'object',
        properties: { ms: { type: 'integer', minimum: 0, maximum: 600_000 }, ...TIMING_PROPERTIES },
      },
    },
    {
      support: 'required',
      timing,
      async job(args, control) {
        await control.sleep(number(args, 'ms', 100));
        return textResult('required done');
      },
    },
  ),
  taskTool(
    {
      name: 'task_needs_input',
      description:
        'Works for `ms` milliseconds, then asks the user "Proceed?" (a form with one boolean, ' +
        'proceed): "confirmed" if they accept with proceed true, else "not confirmed".',
      inputSchema: {
        type: 'object',
        properties: { ms: { type: 'integer', minimum: 0, maximum: 600_000 }, ...TIMING_PROPERTIES },
      },
    },
    {
      support: 'optional',
      timing,
      async job(args, control) {
        await control.sleep(number(args, 'ms', 50));
        control.say('waiting for the user');
        const { confirm } = await control.ask({ confirm: PROCEED });
        const content = isObject(confirm) ? confirm['content'] : undefined;
        const yes =
          confirm?.['action'] === 'accept' && isObject(content) && content['proceed'] === true;
        return textResult(yes ? 'confirmed' : 'not confirmed');
      },
    },
  ),
  taskTool(
    {
      name: 'task_fails',
      description:
        'Works for `ms` milliseconds, then fails: "tool-error" as a tool result with isError, ' +
        '"protocol-error" as JSON-RPC error -32603 "task crashed".',
      inputSchema: {
        type: 'object',
        properties: {
          mode: { type: 'string', enum: ['tool-error', 'protocol-error'] },
          ms: { type: 'integer', minimum: 0, maximum: 600_000 },
          ...TIMING_PROPERTIES,
        },
        required: ['mode'],
      },
    },
    {
      support: 'optional',
      timing,
      async job(args, control) {
        await control.sleep(number(args, 'ms', 50));
        if (args['mode'] === 'tool-error') return errorResult('tool failed');
        throw new RpcError(ErrorCode.InternalError, 'task crashed');
      },
    },
  ),
];
