/**
 * 2025-11-25 tasks against an independent server: the official 1.x SDK's experimental tasks.
 * A tool that requires a task gets one without the caller asking; an optional one only when
 * asked; the client polls tasks/get and collects the answer with tasks/result, input included.
 */
import {
  AbortedError,
  type CallStatus,
  createMcpClient,
  memoryHandleStore,
  TimeoutError,
} from '@toolwire/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SdkTaskServer, startSdkTaskServer } from '../helpers/sdk-task-server.ts';

let server: SdkTaskServer;
beforeAll(async () => {
  server = await startSdkTaskServer();
});
afterAll(() => server.close());

describe('2025-11-25 tasks on the official 1.x server', () => {
  it('runs a tool that requires a task as one, and resolves with its result', async () => {
    const handles = memoryHandleStore();
    const statuses: CallStatus['state'][] = [];
    await using client = createMcpClient(server.url, { listen: false, handles });
    const result = await client.callTool(
      'delay',
      { ms: 150 },
      { onStatus: (status) => statuses.push(status.state) },
    );
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(result.content).toEqual([{ type: 'text', text: 'waited 150 ms' }]);
    expect(statuses[0]).toBe('pending');
    expect(statuses.at(-1)).toBe('done');
    expect(server.methods).toContain('tasks/get');
    expect(server.methods).toContain('tasks/result');
    expect(handles.list()).toEqual([]);
  });

  it('asks for a task for an optional tool only when the caller opts in', async () => {
    await using client = createMcpClient(server.url, { listen: false });
    const before = server.methods.filter((m) => m === 'tasks/get').length;
    const direct = await client.callTool('maybe_delay', { ms: 10 });
    expect(server.methods.filter((m) => m === 'tasks/get').length).toBe(before);
    const tasked = await client.callTool('maybe_delay', { ms: 10 }, { task: true });
    expect(tasked.content).toEqual([{ type: 'text', text: 'as a task after 10 ms' }]);
    expect(server.methods.filter((m) => m === 'tasks/get').length).toBeGreaterThan(before);
    expect(direct.isError).toBe(false);
  });

  it('answers a question the task asks on the tasks/result stream with onElicitation', async () => {
    await using client = createMcpClient(server.url, {
      listen: false,
      onElicitation: async () => ({ action: 'accept', content: { proceed: true } }),
    });
    const result = await client.callTool('confirm_in_task');
    expect(result.content).toEqual([{ type: 'text', text: 'confirmed' }]);
  });

  it('cancels the task with tasks/cancel when the caller aborts while waiting', async () => {
    const handles = memoryHandleStore();
    await using client = createMcpClient(server.url, { listen: false, handles });
    const controller = new AbortController();
    const call = client.callTool(
      'delay',
      { ms: 10_000 },
      {
        signal: controller.signal,
        onStatus: (status) => {
          if (status.state === 'working') controller.abort();
        },
      },
    );
    const error = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).handle).toMatchObject({ kind: 'task', tool: 'delay' });
    expect(server.methods).toContain('tasks/cancel');
    expect(handles.list()).toEqual([]);
  });

  it('leaves the task running when the deadline passes, for the same client to redeem', async () => {
    // Each poll that finds the task alive restarts the timeout; the hard cap ends the wait. The
    // SDK binds a task to the session that created it, so it is this client that redeems it.
    const handles = memoryHandleStore();
    const cancels = () => server.methods.filter((method) => method === 'tasks/cancel').length;
    const cancelledBefore = cancels();
    await using client = createMcpClient(server.url, { listen: false, handles });
    // Connected and listed first: the deadline below is the task's alone, with room for a loaded
    // machine to create it, and none for the task to finish.
    await client.listTools();
    const error = await client
      .callTool('delay', { ms: 4_000 }, { timeoutMs: 1_000, maxTimeoutMs: 1_500 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    const [handle] = handles.list();
    expect(handle).toMatchObject({ kind: 'task', tool: 'delay', url: server.url });
    expect((error as TimeoutError).handle).toEqual(handle);
    expect(cancels()).toBe(cancelledBefore);

    const result = await client.redeem(JSON.parse(JSON.stringify(handle)));
    expect(result.content).toEqual([{ type: 'text', text: 'waited 4000 ms' }]);
    expect(handles.list()).toEqual([]);
  });
});
