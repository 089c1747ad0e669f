/**
 * Tasks on the wire, written from the two specifications: 2025-11-25 core tasks (client-chosen,
 * nested CreateTaskResult, tasks/result) and the 2026-07-28 tasks extension (server-chosen, flat,
 * inlined results, tasks/update). The client is played by hand.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../index.ts';
import { CallStream } from '../testing/call-stream.ts';
import { TestClient } from '../testing/client.ts';
import { modern } from '../testing/modern.ts';

const TASKS = 'io.modelcontextprotocol/tasks';
const withTasks = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } } };

/** The `execution` of a tool in the session's listing, all pages read. */
async function execution(client: TestClient, name: string): Promise<unknown> {
  let cursor: unknown;
  do {
    const page = await client.result('tools/list', cursor === undefined ? {} : { cursor });
    const tools = page['tools'] as Array<Record<string, unknown>>;
    const tool = tools.find((candidate) => candidate['name'] === name);
    if (tool) return tool['execution'];
    cursor = page['nextCursor'];
  } while (cursor !== undefined);
  throw new Error(`${name} is not listed`);
}

/** Polls a legacy task until `done` holds. */
async function pollLegacy(
  client: TestClient,
  taskId: unknown,
  done: (task: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const task = await client.result('tasks/get', { taskId });
    if (done(task)) return task;
    await sleep(20);
  }
  throw new Error('the task never got there');
}

describe('2025-11-25 tasks', () => {
  it('are declared in capabilities and tool listings at 2025-11-25 only', async () => {
    await using server = await startReferenceServer();
    const current = await TestClient.connect(server.url);
    expect(current.initializeResult?.['capabilities']).toMatchObject({
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    expect(await execution(current, 'slow_task')).toEqual({ taskSupport: 'optional' });
    expect(await execution(current, 'task_required')).toEqual({ taskSupport: 'required' });
    expect(await execution(current, 'echo')).toBeUndefined();
    const older = await TestClient.connect(server.url, { version: '2025-06-18' });
    expect(older.initializeResult?.['capabilities']).not.toHaveProperty('tasks');
    expect(await execution(older, 'slow_task')).toBeUndefined();
    expect((await older.request('tasks/list', {})).response?.error).toMatchObject({
      code: -32601,
    });
  });

  it('runs a tool as a task only when asked, as its taskSupport says', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const refuse = async (name: string, params: Record<string, unknown>) =>
      (await client.request('tools/call', { name, arguments: {}, ...params })).response?.error;
    expect(await refuse('task_required', {})).toMatchObject({ code: -32601 });
    expect(await refuse('echo', { arguments: { text: 'x' }, task: {} })).toMatchObject({
      code: -32601,
    });
    const created = await client.result('tools/call', {
      name: 'slow_task',
      arguments: { ms: 100, pollIntervalMs: 25 },
      task: { ttl: 30_000 },
    });
    expect(created['task']).toMatchObject({
      taskId: expect.any(String),
      status: 'working',
      ttl: 30_000,
      pollInterval: 25,
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
    });
    const taskId = (created['task'] as { taskId: string }).taskId;
    expect(await client.result('tasks/get', { taskId })).toMatchObject({
      taskId,
      status: 'working',
    });
    const result = await client.result('tasks/result', { taskId });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'done: ok' }],
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    expect(await client.result('tasks/get', { taskId })).toMatchObject({ status: 'completed' });
    expect((await client.result('tasks/list', {}))['tasks']).toEqual([
      expect.objectContaining({ taskId, status: 'completed' }),
    ]);
  });

  it('puts a task question to the client on the tasks/result stream and goes on with the answer', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, {
      capabilities: { elicitation: { form: {} } },
    });
    const created = await client.result('tools/call', {
      name: 'task_needs_input',
      arguments: { ms: 10 },
      task: {},
    });
    const taskId = (created['task'] as { taskId: string }).taskId;
    await pollLegacy(client, taskId, (task) => task['status'] === 'input_required');
    const stream = await CallStream.open(client, 'tasks/result', { taskId });
    const question = await stream.nextRequest();
    expect(question).toMatchObject({
      method: 'elicitation/create',
      params: {
        message: 'Proceed?',
        _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
      },
    });
    await stream.answer(question, { result: { action: 'accept', content: { proceed: true } } });
    expect((await stream.response()).result).toMatchObject({
      content: [{ type: 'text', text: 'confirmed' }],
    });
  });

  it('fails a task whose tool fails, and gives its error for a crash', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const start = async (mode: string) => {
      const created = await client.result('tools/call', {
        name: 'task_fails',
        arguments: { mode, ms: 0 },
        task: {},
      });
      return (created['task'] as { taskId: string }).taskId;
    };
    const toolError = await start('tool-error');
    await pollLegacy(client, toolError, (task) => task['status'] === 'failed');
    expect(await client.result('tasks/result', { taskId: toolError })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'tool failed' }],
    });
    const crash = await start('protocol-error');
    const { response } = await client.request('tasks/result', { taskId: crash });
    expect(response?.error).toMatchObject({ code: -32603, message: 'task crashed' });
  });

  it('cancels a working task once; a task it does not know is -32602', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const created = await client.result('tools/call', {
      name: 'slow_task',
      arguments: { ms: 60_000 },
      task: {},
    });
    const taskId = (created['task'] as { taskId: string }).taskId;
    expect(await client.result('tasks/cancel', { taskId })).toMatchObject({
      taskId,
      status: 'cancelled',
    });
    expect((await client.request('tasks/cancel', { taskId })).response?.error).toMatchObject({
      code: -32602,
    });
    expect(
      (await client.request('tasks/get', { taskId: 'no-such-task' })).response?.error,
    ).toMatchObject({ code: -32602 });
    expect(server.tasks[0]).toMatchObject({ cancelled: true, statuses: ['working', 'cancelled'] });
  });

  it('keeps a task after the session that made it ends', async () => {
    await using server = await startReferenceServer();
    const first = await TestClient.connect(server.url);
    const created = await first.result('tools/call', {
      name: 'slow_task',
      arguments: { ms: 50, text: 'still here' },
      task: {},
    });
    await fetch(server.url, { method: 'DELETE', headers: first.headers() });
    const second = await TestClient.connect(server.url);
    const taskId = (created['task'] as { taskId: string }).taskId;
    expect(await second.result('tasks/result', { taskId })).toMatchObject({
      content: [{ type: 'text', text: 'done: still here' }],
    });
  });
});

describe('2026-07-28 tasks extension', () => {
  it('is advertised, and a task is made only for a request that declares it', async () => {
    await using server = await startReferenceServer();
    const url = server.urls.modern;
    const discovered = await modern(url, 1, 'server/discover');
    expect(discovered.response?.result?.['capabilities']).toMatchObject({
      extensions: { [TASKS]: {} },
    });
    const args = { name: 'slow_task', arguments: { ms: 10 } };
    const plain = await modern(url, 2, 'tools/call', args);
    expect(plain.response?.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'done: ok' }],
    });
    const required = await modern(url, 3, 'tools/call', { name: 'task_required', arguments: {} });
    expect(required.response?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    const tasked = await modern(url, 4, 'tools/call', args, { meta: withTasks });
    expect(tasked.response?.result).toMatchObject({
      resultType: 'task',
      taskId: expect.any(String),
      status: 'working',
      ttlMs: 60_000,
      pollIntervalMs: 50,
    });
    expect(tasked.response?.result).not.toHaveProperty('task');
    const taskId = tasked.response?.result?.['taskId'];
    const refused = await modern(url, 5, 'tasks/get', { taskId });
    expect(refused.response?.error).toMatchObject({ code: -32021 });
  });

  it('inlines the result, the error or the open questions on tasks/get; tasks/update answers', async () => {
    await using server = await startReferenceServer();
    const url = server.urls.modern;
    const call = async (name: string, args: Record<string, unknown>) =>
      (await modern(url, name, 'tools/call', { name, arguments: args }, { meta: withTasks }))
        .response?.result?.['taskId'];
    const get = async (taskId: unknown) =>
      (await modern(url, 'get', 'tasks/get', { taskId }, { meta: withTasks })).response?.result;
    const until = async (taskId: unknown, status: string) => {
      for (let i = 0; i < 100; i++) {
        const task = await get(taskId);
        if (task?.['status'] === status) return task;
        await sleep(20);
      }
      throw new Error(`never ${status}`);
    };
    const asking = await call('task_needs_input', { ms: 0 });
    const parked = await until(asking, 'input_required');
    expect(parked?.['inputRequests']).toMatchObject({
      confirm: { method: 'elicitation/create', params: { message: 'Proceed?' } },
    });
    const ack = await modern(
      url,
      'update',
      'tasks/update',
      { taskId: asking, inputResponses: { confirm: { action: 'decline' } } },
      { meta: withTasks },
    );
    expect(ack.response?.result).toMatchObject({ resultType: 'complete' });
    expect((await until(asking, 'completed'))?.['result']).toEqual({
      content: [{ type: 'text', text: 'not confirmed' }],
    });
    const crash = await call('task_fails', { mode: 'protocol-error', ms: 0 });
    expect((await until(crash, 'failed'))?.['error']).toEqual({
      code: -32603,
      message: 'task crashed',
    });
    const toolError = await call('task_fails', { mode: 'tool-error', ms: 0 });
    expect((await until(toolError, 'completed'))?.['result']).toMatchObject({ isError: true });
  });

  it('checks Mcp-Name against the task id, and forgets a task past its TTL', async () => {
    await using server = await startReferenceServer();
    const url = server.urls.modern;
    const created = await modern(
      url,
      1,
      'tools/call',
      { name: 'slow_task', arguments: { ms: 60_000, ttlMs: 50 } },
      { meta: withTasks },
    );
    const taskId = created.response?.result?.['taskId'];
    const mismatch = await modern(
      url,
      2,
      'tasks/get',
      { taskId },
      { meta: withTasks, headers: { 'mcp-name': 'another-task' } },
    );
    expect(mismatch.http.status).toBe(400);
    expect(mismatch.response?.error).toMatchObject({ code: -32020 });
    await sleep(80);
    const gone = await modern(url, 3, 'tasks/get', { taskId }, { meta: withTasks });
    expect(gone.response?.error).toMatchObject({ code: -32602 });
    expect(server.tasks[0]?.statuses).toEqual(['working', 'cancelled']);
  });
});
