/**
 * The official @modelcontextprotocol/sdk 1.x server with its experimental 2025-11-25 tasks: an
 * independent implementation of task-augmented tools/call, tasks/get, tasks/result and
 * tasks/cancel. One task store for every session, so a task outlives the client that started it.
 */
import {
  InMemoryTaskMessageQueue,
  InMemoryTaskStore,
} from '@modelcontextprotocol/sdk/experimental/tasks';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ElicitResult, Task } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { serveSdk } from './sdk-server.ts';

export interface SdkTaskServer extends AsyncDisposable {
  url: string;
  /** The JSON-RPC method of every POST, in arrival order. */
  methods: string[];
  close(): Promise<void>;
}

/** How each task tool reads its task back: from the store, as the SDK's examples do. */
const reads = {
  getTask: (_args: unknown, extra: TaskRequestExtra) => extra.taskStore.getTask(extra.taskId),
  getTaskResult: async (_args: unknown, extra: TaskRequestExtra) =>
    (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
};

type TaskRequestExtra = {
  taskId: string;
  taskStore: { getTask(id: string): Promise<Task>; getTaskResult(id: string): Promise<unknown> };
};

function buildServer(store: InMemoryTaskStore, timers: Set<NodeJS.Timeout>): McpServer {
  const server = new McpServer(
    { name: 'sdk-tasks', version: '1.0.0' },
    {
      capabilities: { tasks: { requests: { tools: { call: {} } }, cancel: {}, list: {} } },
      taskStore: store,
      taskMessageQueue: new InMemoryTaskMessageQueue(),
    },
  );
  const later = (ms: number, work: () => Promise<void>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      void work();
    }, ms);
    timers.add(timer);
  };
  server.experimental.tasks.registerToolTask(
    'delay',
    { description: 'Waits, then answers', inputSchema: { ms: z.number() } },
    {
      async createTask({ ms }, extra) {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
        later(ms, () =>
          store.storeTaskResult(task.taskId, 'completed', {
            content: [{ type: 'text', text: `waited ${ms} ms` }],
          }),
        );
        return { task };
      },
      ...reads,
    },
  );
  server.experimental.tasks.registerToolTask(
    'maybe_delay',
    {
      description: 'Waits as a task when asked to, else answers at once',
      inputSchema: { ms: z.number() },
      execution: { taskSupport: 'optional' },
    },
    {
      async createTask({ ms }, extra) {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
        later(ms, () =>
          store.storeTaskResult(task.taskId, 'completed', {
            content: [{ type: 'text', text: `as a task after ${ms} ms` }],
          }),
        );
        return { task };
      },
      ...reads,
    },
  );
  server.experimental.tasks.registerToolTask(
    'confirm_in_task',
    { description: 'Asks the user inside the task', inputSchema: {} },
    {
      async createTask(_args, extra) {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
        void (async () => {
          // The SDK marks a task input_required only for requests sent through the task's own
          // context; this question is sent beside it, so the status is set here.
          await store.updateTaskStatus(task.taskId, 'input_required');
          let answer: ElicitResult | undefined;
          const questions = server.server.experimental.tasks.elicitInputStream(
            {
              mode: 'form',
              message: 'Proceed?',
              requestedSchema: {
                type: 'object',
                properties: { proceed: { type: 'boolean' } },
                required: ['proceed'],
              },
            },
            // Queued for the task: the SDK delivers it on the stream of the client's tasks/result.
            { relatedTask: { taskId: task.taskId } },
          );
          for await (const message of questions) {
            if (message.type === 'result') answer = message.result;
          }
          const confirmed = answer?.action === 'accept' && answer.content?.['proceed'] === true;
          await store.storeTaskResult(task.taskId, 'completed', {
            content: [{ type: 'text', text: confirmed ? 'confirmed' : 'not confirmed' }],
          });
        })();
        return { task };
      },
      ...reads,
    },
  );
  return server;
}

export async function startSdkTaskServer(): Promise<SdkTaskServer> {
  const store = new InMemoryTaskStore();
  const timers = new Set<NodeJS.Timeout>();
  const methods: string[] = [];
  const served = await serveSdk(() => buildServer(store, timers), {
    onRequest: (_httpMethod, method) => {
      if (method !== undefined) methods.push(method);
    },
  });
  const close = async () => {
    for (const timer of timers) clearTimeout(timer);
    store.cleanup();
    await served.close();
  };
  return { url: served.url, methods, close, [Symbol.asyncDispose]: close };
}
