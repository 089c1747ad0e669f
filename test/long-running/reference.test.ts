/**
 * Long-running work against the reference server, in each dialect that defers: 2026-07-28 tasks
 * (the tasks extension), 2025-11-25 tasks, and MCP-lite promises. The server records every task's
 * statuses, polls and cancellation, and every redeem, so pacing and cancellation are seen from
 * its side.
 */
import {
  AbortedError,
  type CallStatus,
  ClientClosedError,
  createMcpClient,
  HandleExpiredError,
  memoryHandleStore,
  TaskFailedError,
} from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';

let server: ReferenceServer;
beforeEach(async () => {
  server = await startReferenceServer();
});
afterEach(() => server.close());

const ERAS = [
  // 2026-07-28: the server decides, and makes a task whenever the client declares the extension.
  { era: 'modern', url: () => server.urls.modern, optional: {} },
  // 2025-11-25: the client asks for a task with params.task (task: true on an optional tool).
  { era: 'legacy', url: () => server.url, optional: { task: true } },
] as const;

describe.each(ERAS)('$era tasks', ({ era, url, optional }) => {
  test('a call that becomes a task resolves with its result, polled at the server pace', async () => {
    const handles = memoryHandleStore();
    await using client = createMcpClient(url(), { listen: false, handles });
    const statuses: CallStatus[] = [];
    const result = await client.callTool(
      'slow_task',
      { ms: 300, text: era, pollIntervalMs: 80 },
      { ...optional, onStatus: (status) => statuses.push(status) },
    );
    expect(result.content).toEqual([{ type: 'text', text: `done: ${era}` }]);
    const [task] = server.tasks;
    expect(task).toMatchObject({ era, tool: 'slow_task', statuses: ['working', 'completed'] });
    const polls = task?.polls ?? [];
    expect(polls.length).toBeGreaterThan(1);
    for (const [i, at] of polls.slice(1).entries()) {
      expect(at - (polls[i] ?? 0)).toBeGreaterThanOrEqual(78);
    }
    expect(statuses[0]).toMatchObject({
      state: 'pending',
      handle: { kind: 'task', tool: 'slow_task' },
    });
    expect(statuses.at(-1)?.state).toBe('done');
    expect(handles.list()).toEqual([]);
  });

  test('a tool that runs only as a task gets one without the caller asking', async () => {
    await using client = createMcpClient(url(), { listen: false });
    const result = await client.callTool('task_required', { ms: 50 });
    expect(result.content).toEqual([{ type: 'text', text: 'required done' }]);
    expect(server.tasks.map((task) => task.tool)).toEqual(['task_required']);
  });

  test.each([
    [{ action: 'accept', content: { proceed: true } }, 'confirmed'],
    [{ action: 'decline' }, 'not confirmed'],
  ] as const)(
    'a task that needs the user midway is answered by onElicitation (%j)',
    async (answer, text) => {
      const asked: string[] = [];
      await using client = createMcpClient(url(), {
        listen: false,
        onElicitation: async (request) => {
          asked.push(request.message);
          return answer;
        },
      });
      const result = await client.callTool('task_needs_input', { ms: 20 }, optional);
      expect(result.content).toEqual([{ type: 'text', text }]);
      expect(asked).toEqual(['Proceed?']);
      expect(server.tasks[0]?.statuses).toEqual([
        'working',
        'input_required',
        'working',
        'completed',
      ]);
    },
  );

  test('a task whose tool fails returns the failure; one that crashes is a TaskFailedError', async () => {
    await using client = createMcpClient(url(), { listen: false });
    const failed = await client.callTool('task_fails', { mode: 'tool-error' }, optional);
    expect(failed).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'tool failed' }],
    });
    const error = await client
      .callTool('task_fails', { mode: 'protocol-error' }, optional)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({ rpcCode: -32603, handle: { tool: 'task_fails' } });
    expect((error as Error).message).toContain('task crashed');
  });

  test('aborting while waiting cancels the task on the server', async () => {
    const handles = memoryHandleStore();
    await using client = createMcpClient(url(), { listen: false, handles });
    const controller = new AbortController();
    const error = await client
      .callTool(
        'slow_task',
        { ms: 60_000 },
        {
          ...optional,
          signal: controller.signal,
          onStatus: (status) => status.state === 'pending' && controller.abort(),
        },
      )
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortedError);
    expect(server.tasks[0]).toMatchObject({ cancelled: true });
    expect(server.tasks[0]?.statuses.at(-1)).toBe('cancelled');
    expect(handles.list()).toEqual([]);
  });

  test('a handle stored, the client closed, another client redeems it', async () => {
    const handles = memoryHandleStore();
    const first = createMcpClient(url(), { listen: false, handles });
    const waiting = first
      .callTool('slow_task', { ms: 400, text: 'kept' }, optional)
      .catch((caught: unknown) => caught);
    await waitFor(() => handles.list().length === 1);
    await first.close();
    expect(await waiting).toBeInstanceOf(ClientClosedError);
    expect(server.tasks[0]?.cancelled).toBe(false);
    // What a restarted process would read back from its store.
    const stored = JSON.parse(JSON.stringify(handles.list()));
    await using second = createMcpClient(url(), { listen: false, handles });
    const result = await second.redeem(stored[0]);
    expect(result.content).toEqual([{ type: 'text', text: 'done: kept' }]);
    expect(handles.list()).toEqual([]);
  });

  test('a task past its TTL is a HandleExpiredError', async () => {
    await using client = createMcpClient(url(), { listen: false });
    const error = await client
      .callTool('slow_task', { ms: 5_000, ttlMs: 100, pollIntervalMs: 150 }, optional)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HandleExpiredError);
    expect((error as HandleExpiredError).handle).toMatchObject({ kind: 'task', tool: 'slow_task' });
  });
});

test('2025-11-25: an optional tool runs at once unless the caller asks for a task', async () => {
  await using client = createMcpClient(server.url, { listen: false });
  const tools = await client.listTools();
  expect(tools.find((tool) => tool.name === 'slow_task')?.execution).toEqual({
    taskSupport: 'optional',
  });
  const direct = await client.callTool('slow_task', { ms: 10, text: 'direct' });
  expect(direct.content).toEqual([{ type: 'text', text: 'done: direct' }]);
  expect(server.tasks).toEqual([]);
});

describe('MCP-lite promises', () => {
  test('redeemed when the server says the result is due, never before', async () => {
    await using client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
    const result = await client.callTool('long_analysis', { ms: 300, text: 'sales' });
    expect(result.content).toEqual([{ type: 'text', text: 'analysis: sales' }]);
    expect(server.liteRedeems).toHaveLength(1);
    for (const redeem of server.liteRedeems) {
      expect(redeem.at).toBeGreaterThanOrEqual(redeem.due ?? 0);
    }
  });

  test('an expired token is a HandleExpiredError carrying the handle', async () => {
    await using client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
    const error = await client
      .callTool('long_analysis', { ms: 400, ttlMs: 100 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HandleExpiredError);
    expect((error as HandleExpiredError).handle).toMatchObject({
      kind: 'promise',
      dialect: 'mcp-lite',
      tool: 'long_analysis',
    });
  });

  test('a promise handed back by one client is redeemed by another', async () => {
    const first = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite', autoRedeem: false });
    const pending = await first.callTool('long_analysis', { ms: 200, text: 'later' });
    await first.close();
    expect(pending.pending?.kind).toBe('promise');
    await using second = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
    const result = await second.redeem(pending.pending!);
    expect(result.content).toEqual([{ type: 'text', text: 'analysis: later' }]);
  });

  test('aborting the wait stops redeeming', async () => {
    await using client = createMcpClient(server.urls.mcpLite, { dialect: 'mcp-lite' });
    // Due at 300 ms: without the abort at 100 ms, the client would redeem then.
    const error = await client
      .callTool('long_analysis', { ms: 300 }, { signal: AbortSignal.timeout(100) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortedError);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(server.liteRedeems).toEqual([]);
  });
});
