/**
 * MCP 2025-11-25 tasks (experimental, requestor-driven). The client asks for a task with
 * `params.task` only when the server runs tools/call as tasks and the tool requires it (or allows
 * it and the caller asked); the answer nests the task (`{ task: {...} }`, `ttl`, `pollInterval`).
 * `tasks/get` reports a flat Task; once it needs input or has ended, `tasks/result` gives what the
 * call would have returned, and the server asks its questions on that request's stream.
 */
import {
  type ErrorContext,
  JsonRpcError,
  MalformedMessageError,
  type McpError,
  TaskCancelledError,
  TaskFailedError,
} from '../../core/errors.ts';
import { isObject, type JsonObject } from '../../core/jsonrpc.ts';
import { malformedResult, type PendingHandle, type PollOutcome } from '../../core/outcome.ts';
import { aboutDeferred } from '../../core/wire-codes.ts';
import type { Operation } from '../dialect.ts';

/** The operation, asking for a task where the server and the tool allow (or need) one. */
export function withTaskRequest(operation: Operation, capabilities: JsonObject): Operation {
  if (operation.method !== 'tools/call' || !runsToolCallsAsTasks(capabilities)) return operation;
  const support = operation.definition?.execution?.['taskSupport'];
  const wanted = support === 'required' || (support === 'optional' && operation.task === true);
  return wanted ? { ...operation, params: { ...operation.params, task: {} } } : operation;
}

function runsToolCallsAsTasks(capabilities: JsonObject): boolean {
  const tasks = capabilities['tasks'];
  const requests = isObject(tasks) ? tasks['requests'] : undefined;
  const tools = isObject(requests) ? requests['tools'] : undefined;
  return isObject(tools) && isObject(tools['call']);
}

/** A `CreateTaskResult` when the operation asked for a task, else the result as it is. */
export function callOutcome(
  operation: Operation,
  result: JsonObject,
  where: ErrorContext,
): PollOutcome {
  if (!isObject(operation.params?.['task'])) return { kind: 'complete', result };
  const task = result['task'];
  if (!isObject(task) || typeof task['taskId'] !== 'string' || task['taskId'] === '') {
    // A server may run the call at once after all; a result with content is that result.
    if (Array.isArray(result['content'])) return { kind: 'complete', result };
    return malformedResult('a task result without task.taskId', result, where);
  }
  const ttl = task['ttl'];
  return pending(task, {
    kind: 'task',
    id: task['taskId'],
    ttlMs: typeof ttl === 'number' && ttl > 0 ? ttl : undefined,
  });
}

/**
 * What a `tasks/get` answer means: still working (ask again later), cancelled, or ready to be
 * collected with `tasks/result` (it needs input, or it has ended either way).
 */
export function taskState(
  task: JsonObject,
  handle: PendingHandle,
  where: ErrorContext,
): PollOutcome | 'collect' {
  switch (task['status']) {
    case 'working':
      return pending(task, handle);
    case 'cancelled':
      return { kind: 'failure', error: new TaskCancelledError(handle, where) };
    case 'input_required':
    case 'completed':
    case 'failed':
      return 'collect';
    default:
      return {
        kind: 'failure',
        error: new MalformedMessageError(`task status ${JSON.stringify(task['status'])}`, where),
      };
  }
}

/**
 * A failure of `tasks/get` or `tasks/result`: one that says the server does not know the task
 * (any more) is a `HandleExpiredError`; any other error of `tasks/result` is the error the task
 * itself ended with.
 */
export function taskError(
  error: McpError,
  handle: PendingHandle,
  method: string,
  where: ErrorContext,
): McpError {
  if (!(error instanceof JsonRpcError)) return error;
  const about = aboutDeferred(error, handle, where);
  if (about !== error || method !== 'tasks/result') return about;
  return new TaskFailedError(
    handle,
    { code: error.rpcCode, message: error.serverMessage, data: error.data },
    { ...where, cause: error },
  );
}

function pending(task: JsonObject, handle: PendingHandle): PollOutcome {
  const poll = task['pollInterval'];
  const message = task['statusMessage'];
  return {
    kind: 'pending',
    handle,
    retryAfterMs: typeof poll === 'number' && poll >= 0 ? poll : undefined,
    status: 'working',
    message: typeof message === 'string' ? message : undefined,
  };
}
