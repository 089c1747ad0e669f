/**
 * A task as each specification shows it. 2026-07-28 (SEP-2663): flat, `ttlMs` and
 * `pollIntervalMs`, and on `tasks/get` the result, error or open input requests inlined.
 * 2025-11-25: `ttl` and `pollInterval`, nested under `task` in a CreateTaskResult, and the
 * result only through `tasks/result`.
 */
import type { JsonObject } from '../jsonrpc.ts';
import type { Task } from './store.ts';

function common(task: Task): JsonObject {
  const shown: JsonObject = {
    taskId: task.id,
    status: task.status,
    createdAt: task.createdAt.toISOString(),
    lastUpdatedAt: task.lastUpdatedAt.toISOString(),
  };
  if (task.statusMessage !== undefined) shown['statusMessage'] = task.statusMessage;
  return shown;
}

/** The 2026-07-28 task; `detailed` (a `tasks/get` answer) inlines what its status holds. */
export function modernTask(task: Task, detailed: boolean): JsonObject {
  const shown: JsonObject = {
    ...common(task),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
  if (!detailed) return shown;
  if (task.status === 'completed' && task.result) shown['result'] = task.result;
  if (task.status === 'failed' && task.error) shown['error'] = task.error;
  if (task.status === 'input_required') {
    shown['inputRequests'] = Object.fromEntries(
      [...task.questions].map(([key, question]) => [key, question.request]),
    );
  }
  return shown;
}

/** The 2025-11-25 task. */
export function legacyTask(task: Task): JsonObject {
  return { ...common(task), ttl: task.ttlMs, pollInterval: task.pollIntervalMs };
}
