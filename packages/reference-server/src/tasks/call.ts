/**
 * A tools/call of a tool that can run as a task, in either era. 2026-07-28 (SEP-2663): the server
 * decides, and makes a task whenever the request declares the tasks extension; without it an
 * optional tool runs at once and a required one is -32021. 2025-11-25: the client decides with
 * `params.task`, which a required tool must have and a tool without task support must not
 * (-32601 either way); sessions at earlier revisions know nothing of tasks.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { askOnce } from '../asking/legacy.ts';
import type { RequestContext } from '../context.ts';
import { ErrorCode, isObject, type JsonObject, RpcError } from '../jsonrpc.ts';
import { ModernCode } from '../modern/envelope.ts';
import type { ToolDefinition } from '../tools.ts';
import type { TaskControl, TaskTiming } from './store.ts';
import { legacyTask, modernTask } from './wire.ts';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** The revision that has core tasks. */
export const TASKS_SINCE = '2025-11-25';

/** How a tool runs as a task. */
export interface TaskSupport {
  readonly support: 'optional' | 'required';
  /** The task's TTL and poll interval for these arguments. */
  timing(args: JsonObject): TaskTiming;
  /** The work; the same job runs in a task and, for an optional tool, inline. */
  job(args: JsonObject, control: TaskControl): Promise<JsonObject>;
  /**
   * 2026-07-28 only: input gathered with MRTR before the task is made. Returns an
   * `input_required` result to send instead, or the arguments the job gets.
   */
  gather?(args: JsonObject, ctx: RequestContext): JsonObject | { inputRequired: JsonObject };
}

/** Whether this 2026-07-28 request declared the tasks extension. */
export function declaresTasks(ctx: RequestContext): boolean {
  const extensions = ctx.modern?.clientCapabilities['extensions'];
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

/** Whether a legacy session speaks a revision with tasks. */
export function sessionHasTasks(ctx: RequestContext): boolean {
  return ctx.modern === undefined && (ctx.session?.version ?? '') >= TASKS_SINCE;
}

/** -32021 naming the tasks extension. */
export function tasksRequired(what: string): RpcError {
  return new RpcError(
    ModernCode.MissingRequiredClientCapability,
    `Missing required client capability: ${TASKS_EXTENSION} (${what})`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** `tools/call` of a tool whose arguments are already checked. */
export async function callTool(
  tool: ToolDefinition,
  args: JsonObject,
  params: JsonObject,
  ctx: RequestContext,
): Promise<JsonObject> {
  const task = tool.task;
  if (ctx.modern !== undefined) {
    // A 2025-11-25 client's `task` hint is tolerated and changes nothing (SEP-2663).
    if (task === undefined) return tool.run(args, ctx);
    if (!declaresTasks(ctx)) {
      if (task.support === 'required') throw tasksRequired(`${tool.name} runs only as a task`);
      return task.job(args, inlineControl(ctx));
    }
    const gathered = task.gather ? task.gather(args, ctx) : args;
    if ('inputRequired' in gathered && isObject(gathered['inputRequired'])) {
      return gathered['inputRequired'];
    }
    const made = ctx.tasks.create(tool.name, 'modern', task.timing(gathered), (control) =>
      task.job(gathered, control),
    );
    return { resultType: 'task', ...modernTask(made, false) };
  }
  const inline = () => (task ? task.job(args, inlineControl(ctx)) : tool.run(args, ctx));
  if (!sessionHasTasks(ctx)) return inline();
  const taskParams = params['task'];
  if (!isObject(taskParams)) {
    if (task?.support !== 'required') return inline();
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `Method not found: ${tool.name} runs only as a task (params.task)`,
    );
  }
  if (task === undefined) {
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `Method not found: ${tool.name} does not run as a task`,
    );
  }
  const timing = task.timing(args);
  const ttl = taskParams['ttl'];
  if (typeof ttl === 'number' && ttl > 0) timing.ttlMs = Math.min(ttl, timing.ttlMs);
  const made = ctx.tasks.create(tool.name, 'legacy', timing, (control) => task.job(args, control));
  return { task: legacyTask(made) };
}

/**
 * The control of a job run inline, as a plain call: it sleeps under the call's signal; it asks
 * on the call's stream in a legacy session, and cannot ask at all in 2026-07-28 (the job would
 * need a task to wait in, so the client is told to declare the extension).
 */
export function inlineControl(ctx: RequestContext): TaskControl {
  return {
    signal: ctx.signal,
    sleep: (ms) => sleep(ms, undefined, { signal: ctx.signal }),
    say: () => {},
    ask: async (requests) => {
      if (ctx.modern !== undefined) throw tasksRequired('the tool asks for input while it runs');
      const answers: Record<string, JsonObject> = {};
      for (const [key, request] of Object.entries(requests)) {
        const params = isObject(request['params']) ? request['params'] : {};
        const asked = await askOnce(ctx, { method: String(request['method']), params });
        answers[key] = 'answer' in asked ? asked.answer : { action: 'cancel' };
      }
      return answers;
    },
  };
}
