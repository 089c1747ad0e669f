/**
 * 2026-07-28 tasks from servers that misbehave or answer in ways the reference server never
 * does on its own: no poll interval, an input request listed again after it was answered, a
 * task that vanishes, fails or is cancelled by someone else, and a store that breaks.
 */
import { inspect } from 'node:util';
import {
  type CallHandle,
  ClientClosedError,
  createMcpClient,
  HandleExpiredError,
  JsonRpcError,
  memoryHandleStore,
  TaskCancelledError,
  TaskFailedError,
} from '@toolwire/client';
import { HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.ts';
import { handles, settledHandles } from '../helpers/handles.ts';
import { modernServer } from '../helpers/modern-server.ts';
import { metaOf } from '../helpers/rpc.ts';
import { waitFor } from '../helpers/wait-for.ts';

const TASK_ID = 'task-0123456789abcdef-secret';
const options = () => ({ listen: false });

function task(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    taskId: TASK_ID,
    status,
    createdAt: '2026-11-23T00:00:00Z',
    lastUpdatedAt: '2026-11-23T00:00:00Z',
    ttlMs: 60_000,
    ...extra,
  };
}

const reply = (id: unknown, result: Record<string, unknown>) =>
  HttpResponse.json({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...result } });

/**
 * A modern server whose `long` tool answers with a task; `poll(n)` answers the n-th tasks/get
 * (with a JSON-RPC error when it returns `{ error }`).
 */
async function taskServer(
  poll: (n: number) => Record<string, unknown>,
  created: Record<string, unknown> = { pollIntervalMs: 30 },
) {
  let polls = 0;
  const server = await startFaultServer(
    modernServer({
      tools: [{ name: 'long', inputSchema: { type: 'object' } }],
      override: (message) => {
        if (message.method === 'tools/call' && message.params?.['name'] === 'long') {
          return reply(message.id, { ...task('working', created), resultType: 'task' });
        }
        if (message.method === 'tasks/get') {
          const answer = poll(polls++);
          return 'error' in answer && !('status' in answer)
            ? HttpResponse.json({ jsonrpc: '2.0', id: message.id, error: answer['error'] })
            : reply(message.id, answer);
        }
        if (message.method === 'tasks/update' || message.method === 'tasks/cancel') {
          return reply(message.id, {});
        }
        return undefined;
      },
    }),
  );
  return { server };
}

const done = task('completed', { result: { content: [{ type: 'text', text: 'finished' }] } });

test('the tasks extension is declared in every request, and tasks/get names the task in Mcp-Name', async () => {
  const { server } = await taskServer((n) => (n < 1 ? task('working') : done));
  await using client = createMcpClient(server.url, options());
  const result = await client.callTool('long');
  expect(result.content).toEqual([{ type: 'text', text: 'finished' }]);
  for (const call of server.calls) {
    expect(metaOf(call.body)['io.modelcontextprotocol/clientCapabilities']).toMatchObject({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
  }
  const polls = server.callsOf('tasks/get');
  expect(polls).toHaveLength(2);
  expect(polls[0]?.headers.get('mcp-name')).toBe(TASK_ID);
  await server.close();
});

// The pace of the polls (the server's pollIntervalMs, else a backoff from 250 ms) is measured on
// fake timers in packages/client/src/call/pacing.test.ts; here, the same over real HTTP.
test('a server that asks for a pace is polled until the task is done', async () => {
  const { server } = await taskServer(
    (n) => (n < 3 ? task('working', { pollIntervalMs: 60 }) : done),
    { pollIntervalMs: 60 },
  );
  await using client = createMcpClient(server.url, options());
  expect((await client.callTool('long')).content).toEqual([{ type: 'text', text: 'finished' }]);
  expect(server.callsOf('tasks/get')).toHaveLength(4);
  await server.close();
});

test('a server that gives no pace (pollIntervalMs 0) is polled until the task is done', async () => {
  const { server } = await taskServer(
    (n) => (n < 2 ? task('working', { pollIntervalMs: 0 }) : done),
    { pollIntervalMs: 0 },
  );
  await using client = createMcpClient(server.url, options());
  expect((await client.callTool('long')).content).toEqual([{ type: 'text', text: 'finished' }]);
  expect(server.callsOf('tasks/get')).toHaveLength(3);
  await server.close();
});

test('an input request is answered once, however many polls still list it', async () => {
  const asking = task('input_required', {
    pollIntervalMs: 20,
    inputRequests: {
      go: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Go?',
          requestedSchema: { type: 'object', properties: {} },
        },
      },
    },
  });
  const { server } = await taskServer((n) => (n < 3 ? asking : done));
  const asked: string[] = [];
  await using client = createMcpClient(server.url, {
    ...options(),
    onElicitation: async (request) => {
      asked.push(request.message);
      return { action: 'accept', content: {} };
    },
  });
  const states: string[] = [];
  await client.callTool('long', {}, { onStatus: (status) => states.push(status.state) });
  expect(asked).toEqual(['Go?']);
  const updates = server.callsOf('tasks/update');
  expect(updates).toHaveLength(1);
  expect(updates[0]?.body?.['params']).toMatchObject({
    taskId: TASK_ID,
    inputResponses: { go: { action: 'accept', content: {} } },
  });
  expect(updates[0]?.headers.get('mcp-name')).toBe(TASK_ID);
  expect(states).toEqual(['pending', 'input_required', 'done']);
  await server.close();
});

test('a task the server no longer knows is a HandleExpiredError that carries the handle but never prints the id', async () => {
  const { server } = await taskServer(() => ({
    error: { code: -32602, message: 'no such task' },
  }));
  const handles = memoryHandleStore();
  await using client = createMcpClient(server.url, { ...options(), handles });
  const error = await client.callTool('long').catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(HandleExpiredError);
  const { handle } = error as HandleExpiredError;
  expect(handle).toMatchObject({ kind: 'task', id: TASK_ID, tool: 'long', url: server.url });
  expect((error as Error).message).not.toContain(TASK_ID);
  expect(inspect(error, { depth: 5 })).not.toContain(TASK_ID);
  expect(JSON.stringify(error)).not.toContain(TASK_ID);
  // The server has said the last word on it: the store forgets it.
  expect(handles.list()).toEqual([]);
  await server.close();
});

test('a poll that fails for another reason leaves the handle stored, on the error, for later', async () => {
  const { server } = await taskServer(() => ({
    error: { code: -32603, message: 'database busy' },
  }));
  const handles = memoryHandleStore();
  await using client = createMcpClient(server.url, { ...options(), handles });
  const error = await client.callTool('long').catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(JsonRpcError);
  expect((error as JsonRpcError).rpcCode).toBe(-32603);
  expect((error as JsonRpcError).handle).toMatchObject({ kind: 'task', id: TASK_ID });
  expect(handles.list()).toEqual([(error as JsonRpcError).handle]);
  await server.close();
});

test('a failed task is a TaskFailedError with the server error; a cancelled one a TaskCancelledError', async () => {
  const failing = await taskServer(() =>
    task('failed', { error: { code: -32603, message: 'disk full', data: { free: 0 } } }),
  );
  await using first = createMcpClient(failing.server.url, options());
  const failed = await first.callTool('long').catch((caught: unknown) => caught);
  expect(failed).toBeInstanceOf(TaskFailedError);
  expect(failed).toMatchObject({ rpcCode: -32603, data: { free: 0 } });
  expect((failed as Error).message).toContain('disk full');
  expect((failed as TaskFailedError).handle?.id).toBe(TASK_ID);
  await failing.server.close();

  const cancelling = await taskServer(() => task('cancelled'));
  await using second = createMcpClient(cancelling.server.url, options());
  const cancelled = await second.callTool('long').catch((caught: unknown) => caught);
  expect(cancelled).toBeInstanceOf(TaskCancelledError);
  expect((cancelled as TaskCancelledError).handle?.tool).toBe('long');
  await cancelling.server.close();
});

test('a store that fails is reported as a warning, and the call still gets its answer', async () => {
  const { server } = await taskServer((n) => (n < 1 ? task('working') : done));
  const warnings: string[] = [];
  await using client = createMcpClient(server.url, {
    ...options(),
    handles: {
      save: () => Promise.reject(new Error('database down')),
      delete: () => {
        throw new Error('still down');
      },
    },
  });
  client.on('warning', (error) => warnings.push(error.message));
  const result = await client.callTool('long');
  expect(result.content).toEqual([{ type: 'text', text: 'finished' }]);
  expect(warnings).toEqual(['database down', 'still down']);
  await server.close();
});

test('with autoRedeem off, a deferred call resolves at once with its handle, redeemed later', async () => {
  const { server } = await taskServer((n) => (n < 1 ? task('working') : done));
  const handles = memoryHandleStore();
  await using client = createMcpClient(server.url, { ...options(), autoRedeem: false, handles });
  const first = await client.callTool('long');
  expect(server.callsOf('tasks/get')).toHaveLength(0);
  expect(first.pending).toMatchObject({ kind: 'task', id: TASK_ID, tool: 'long' });
  expect(first.content).toEqual([
    { type: 'text', text: 'The server accepted the call as a task and is working on it.' },
  ]);
  expect(handles.list()).toEqual([first.pending]);
  const final = await client.redeem(first.pending as CallHandle);
  expect(final.content).toEqual([{ type: 'text', text: 'finished' }]);
  expect(final.pending).toBeUndefined();
  expect(handles.list()).toEqual([]);
  await server.close();
});

test('close() while a call waits on a task leaves no socket or timer behind, and the handle stored', async () => {
  // This server keeps no timers of its own: what is left after close() would be the client's.
  const { server } = await taskServer(() => task('working', { pollIntervalMs: 20 }));
  const baseline = await settledHandles();
  const store = memoryHandleStore();
  const client = createMcpClient(server.url, { ...options(), handles: store });
  let waiting = false;
  const call = client
    .callTool('long', {}, { onStatus: (status) => (waiting ||= status.state === 'working') })
    .catch((caught: unknown) => caught);
  await waitFor(() => waiting);
  expect(handles()).toBeGreaterThan(baseline);
  await client.close();
  expect(await call).toBeInstanceOf(ClientClosedError);
  expect(store.list()).toHaveLength(1);
  await waitFor(() => handles() <= baseline);
  expect(handles()).toBeLessThanOrEqual(baseline);
  await server.close();
});
