/**
 * The tasks/* methods of each era. 2026-07-28: `tasks/get`, `tasks/update`, `tasks/cancel`, for
 * requests that declare the extension (else -32021); `tasks/result` and `tasks/list` are gone.
 * 2025-11-25: `tasks/get`, `tasks/result` (blocks until the task ends, putting its questions to
 * the client on the way), `tasks/list` and `tasks/cancel`.
 */
import { askOnce } from '../asking/legacy.ts';
import type { RequestContext } from '../context.ts';
import { ErrorCode, isObject, type JsonObject, RpcError } from '../jsonrpc.ts';
import { declaresTasks, sessionHasTasks, tasksRequired } from './call.ts';
import type { Task } from './store.ts';
import { legacyTask, modernTask } from './wire.ts';

type Method = (params: JsonObject, ctx: RequestContext) => unknown;

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

function modern(method: string, run: (task: Task, params: JsonObject) => JsonObject): Method {
  return (params, ctx) => {
    if (!declaresTasks(ctx)) throw tasksRequired(`${method} needs it`);
    return run(ctx.tasks.get(params['taskId'], 'modern'), params);
  };
}

export const MODERN_TASK_METHODS: ReadonlyMap<string, Method> = new Map([
  [
    'tasks/get',
    modern('tasks/get', (task) => {
      task.record.polls.push(Date.now());
      return modernTask(task, true);
    }),
  ],
  [
    'tasks/update',
    modern('tasks/update', (task, params) => {
      const responses = params['inputResponses'];
      if (!isObject(responses)) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          'Invalid params: inputResponses must be an object',
        );
      }
      task.answer(responses);
      return {};
    }),
  ],
  [
    'tasks/cancel',
    modern('tasks/cancel', (task) => {
      task.cancel();
      return {};
    }),
  ],
]);

function legacy(run: (params: JsonObject, ctx: RequestContext) => unknown): Method {
  return (params, ctx) => {
    if (!sessionHasTasks(ctx)) throw new RpcError(ErrorCode.MethodNotFound, 'Method not found');
    return run(params, ctx);
  };
}

/** `tasks/result`: waits for the end, asking the client what the task needs on this stream. */
async function taskResult(params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
  const task = ctx.tasks.get(params['taskId'], 'legacy');
  const stopped = aborted(ctx.signal);
  // The waits below race it; a loss must not surface as an unhandled rejection.
  stopped.catch(() => {});
  while (!task.terminal) {
    const changed = task.changed();
    for (const [key, question] of task.questions) {
      if (question.sent) continue;
      question.sent = true;
      const request = question.request;
      const asked = {
        method: String(request['method']),
        params: {
          ...(isObject(request['params']) ? request['params'] : {}),
          _meta: { [RELATED_TASK]: { taskId: task.id } },
        },
      };
      void askOnce(ctx, asked).then((reply) =>
        task.answer({ [key]: 'answer' in reply ? reply.answer : { action: 'cancel' } }),
      );
    }
    await Promise.race([changed, stopped]);
  }
  if (task.error !== undefined) {
    const { code, message, data } = task.error;
    throw new RpcError(Number(code), String(message), data);
  }
  if (task.result === undefined) {
    throw new RpcError(ErrorCode.InternalError, `task ${task.id} was ${task.status}`);
  }
  const meta = isObject(task.result['_meta']) ? task.result['_meta'] : {};
  return { ...task.result, _meta: { ...meta, [RELATED_TASK]: { taskId: task.id } } };
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

export const LEGACY_TASK_METHODS: ReadonlyMap<string, Method> = new Map([
  [
    'tasks/get',
    legacy((params, ctx) => {
      const task = ctx.tasks.get(params['taskId'], 'legacy');
      task.record.polls.push(Date.now());
      return legacyTask(task);
    }),
  ],
  ['tasks/result', legacy(taskResult)],
  ['tasks/list', legacy((_params, ctx) => ({ tasks: ctx.tasks.list('legacy').map(legacyTask) }))],
  [
    'tasks/cancel',
    legacy((params, ctx) => {
      const task = ctx.tasks.get(params['taskId'], 'legacy');
      if (task.terminal) {
        throw new RpcError(ErrorCode.InvalidParams, `Invalid params: task ${task.id} has ended`);
      }
      task.cancel();
      return legacyTask(task);
    }),
  ],
]);
