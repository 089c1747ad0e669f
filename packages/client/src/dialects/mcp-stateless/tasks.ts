/**
 * The 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) as Outcomes. The
 * server decides per call whether to answer with a task (`resultType: "task"`, a flat
 * `CreateTaskResult`); `tasks/get` then reports it, with the final `result` inlined once it is
 * `completed` (a tool failure included, as `isError`), a JSON-RPC `error` once it has `failed`,
 * and `inputRequests` while it waits for the client (answered with `tasks/update`).
 */
import { type ErrorContext, TaskCancelledError, TaskFailedError } from '../../core/errors.ts';
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';
import {
  malformedResult,
  type PendingHandle,
  type PollOutcome,
  questionsOf,
} from '../../core/outcome.ts';
import { protocolResult } from './meta.ts';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The extension goes into the capabilities of every request: the client redeems tasks itself. */
export function withTasksExtension(capabilities: JsonObject): JsonObject {
  const extensions = isObject(capabilities['extensions']) ? capabilities['extensions'] : {};
  return { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
}

/** A `CreateTaskResult`: the task as the server created it. */
export function createdTask(result: JsonObject, where: ErrorContext): PollOutcome {
  const taskId = result['taskId'];
  if (typeof taskId !== 'string' || taskId === '') {
    return malformedResult('a task result without a taskId', result, where);
  }
  return pendingOf(result, { kind: 'task', id: taskId, ttlMs: ttlOf(result['ttlMs']) }, where);
}

/** A `tasks/get` answer (a DetailedTask) for `handle`. */
export function taskOutcome(
  result: JsonObject,
  handle: PendingHandle,
  where: ErrorContext,
): PollOutcome {
  switch (result['status']) {
    case 'working':
    case 'input_required':
      return pendingOf(result, handle, where);
    case 'completed': {
      const final = result['result'];
      return isObject(final)
        ? { kind: 'complete', result: protocolResult(final) }
        : malformedResult('a completed task without its result', result, where);
    }
    case 'failed':
      return { kind: 'failure', error: new TaskFailedError(handle, result['error'], where) };
    case 'cancelled':
      return { kind: 'failure', error: new TaskCancelledError(handle, where) };
    default:
      return malformedResult(`task status ${JSON.stringify(result['status'])}`, result, where);
  }
}

function pendingOf(task: JsonObject, handle: PendingHandle, where: ErrorContext): PollOutcome {
  const asked = task['status'] === 'input_required' ? task['inputRequests'] : undefined;
  const questions = asked === undefined ? undefined : questionsOf(asked);
  if (typeof questions === 'string') return malformedResult(questions, task, where);
  const poll = task['pollIntervalMs'];
  const message = task['statusMessage'];
  return {
    kind: 'pending',
    handle,
    retryAfterMs: typeof poll === 'number' && poll >= 0 ? poll : undefined,
    status: task['status'] === 'input_required' ? 'input_required' : 'working',
    message: typeof message === 'string' ? message : undefined,
    questions,
  };
}

function ttlOf(value: unknown): number | undefined {
  return typeof value === 'number' && value > 0 ? value : undefined;
}
