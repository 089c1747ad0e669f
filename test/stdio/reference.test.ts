/**
 * A local server over stdio: the reference server's `--stdio` mode, both eras, and each way a
 * local server goes wrong. Every client is closed, and the processes it started are checked gone
 * by pid.
 */
import {
  createMcpClient,
  memoryVerdictStore,
  ResponseTooLargeError,
  ServerExitedError,
  type StdioServer,
} from '@toolwire/client';
import { describe, expect, test } from 'vitest';
import { handles, settledHandles } from '../helpers/handles.ts';
import { childrenOf, referenceStdio, running } from '../helpers/stdio.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** A client (its verdicts its own, so every test negotiates), and what it reported. */
function clientFor(server: StdioServer, options: Parameters<typeof createMcpClient>[1] = {}) {
  const client = createMcpClient(server, options);
  const warnings: Error[] = [];
  const stderr: string[] = [];
  client.on('warning', (error) => warnings.push(error));
  client.on('stderr', (line) => stderr.push(line));
  return { client, warnings, stderr };
}

/** The pid the reference server's grandchild fault reports on stderr. */
function grandchildPid(stderr: string[]): number {
  const line = stderr.find((each) => each.startsWith('grandchild pid '));
  return Number(line?.slice('grandchild pid '.length) ?? 0);
}

describe('both eras over stdio', () => {
  test('a dual-era server is spoken to at 2026-07-28: calls, progress, input_required, a task', async () => {
    const { client, warnings } = clientFor(referenceStdio(), {
      onElicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    await using _ = client;
    const steps: number[] = [];
    const done = await client.callTool(
      'progress',
      { steps: 3 },
      { onProgress: ({ progress }) => steps.push(progress) },
    );
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.dialect).toBe('mcp-stateless');
    expect(done.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
    expect(steps).toEqual([1, 2, 3]);
    const tools = (await client.listTools()).map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['add', 'ask_name', 'slow_task']));
    const asked = await client.callTool('ask_name');
    expect(JSON.stringify(asked.content)).toContain('Ada');
    const task = await client.callTool('slow_task', { ms: 50 });
    expect(task.isError).toBe(false);
    expect(warnings).toEqual([]);
  });

  test('a legacy server is initialized, and its questions reach the same handlers', async () => {
    const asked: string[] = [];
    const { client, warnings } = clientFor(referenceStdio('--era', 'legacy'), {
      onElicitation: async (request) => {
        asked.push(request.message);
        return { action: 'accept', content: { name: 'Ada' } };
      },
      onSampling: async () => ({
        role: 'assistant',
        content: { type: 'text', text: 'Paris' },
        model: 'test-model',
      }),
      roots: [{ uri: 'file:///home/ada/project', name: 'project' }],
    });
    await using _ = client;
    const elicited = await client.callTool('elicit', { message: 'Your name?' });
    expect(JSON.stringify(elicited.structuredContent)).toContain('Ada');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.dialect).toBe('mcp-stateful');
    const sampled = await client.callTool('sample', { prompt: 'Capital of France?' });
    expect(JSON.stringify(sampled)).toContain('Paris');
    expect(JSON.stringify((await client.callTool('list_roots')).content)).toContain('project');
    expect((await client.callTool('ping_client')).content).toEqual([
      { type: 'text', text: 'client answered ping' },
    ]);
    expect(asked).toHaveLength(1);
    expect(warnings).toEqual([]);
  });

  test('a modern-only server is spoken to at 2026-07-28; pinned to legacy, it names its versions', async () => {
    const modern = clientFor(referenceStdio('--era', 'modern'));
    await using _ = modern.client;
    await modern.client.connect();
    expect(modern.client.protocolVersion).toBe('2026-07-28');
    await using legacy = createMcpClient(referenceStdio('--era', 'modern'), {
      protocolVersion: 'legacy',
    });
    await expect(legacy.connect()).rejects.toMatchObject({
      code: 'UNSUPPORTED_VERSION',
      offered: '2026-07-28',
    });
  });

  test('a list change reaches a modern client over its subscription', async () => {
    const { client } = clientFor(referenceStdio('--era', 'modern'));
    await using _ = client;
    let changed = 0;
    client.on('toolsChanged', () => {
      changed += 1;
    });
    const before = await client.listTools();
    await client.callTool('toggle_tool');
    await waitFor(() => changed === 1);
    expect((await client.listTools()).length).toBe(before.length + 1);
  });
});

describe('abandoning a call', () => {
  test.each([
    ['2026-07-28', []],
    ['2025-11-25', ['--era', 'legacy']],
  ])('at %s, aborting tells the server with notifications/cancelled', async (_, flags) => {
    const { client, stderr } = clientFor(referenceStdio(...flags));
    await using _client = client;
    // Listed first, so the call goes out at once: on a loaded machine the 100 ms could
    // otherwise end during the listing the call makes for itself, and cancel that instead.
    await client.listTools();
    const controller = new AbortController();
    const call = client.callTool('slow', { ms: 60_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user gave up')), 100);
    await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
    await waitFor(() => stderr.some((line) => line.startsWith('cancelled ')));
    expect(stderr.find((line) => line.startsWith('cancelled '))).toContain(
      'call aborted: tools/call (slow)',
    );
  });
});

describe('negotiation as the binding says', () => {
  test('a server that exits on an unknown request is started again once and spoken to as legacy', async () => {
    const { client, stderr } = clientFor(referenceStdio('--era', 'legacy', '--exit-on-unknown'));
    await using _ = client;
    expect((await client.callTool('echo', { text: 'hi' })).content).toEqual([
      { type: 'text', text: 'hi' },
    ]);
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(stderr.filter((line) => line.includes('before initialize: exiting'))).toHaveLength(1);
  });

  test('a server silent on the probe is taken for legacy after connectTimeoutMs', async () => {
    const { client } = clientFor(referenceStdio('--silent-probe'), { connectTimeoutMs: 300 });
    await using _ = client;
    await client.connect();
    expect(client.protocolVersion).toBe('2025-11-25');
  });

  test('the verdict is kept: the next client for the same command sends no probe', async () => {
    const verdicts = memoryVerdictStore();
    const first = createMcpClient(referenceStdio('--era', 'legacy', '--exit-on-unknown'), {
      verdicts,
    });
    const stderr: string[] = [];
    await first.connect();
    await first.close();
    await using second = createMcpClient(referenceStdio('--era', 'legacy', '--exit-on-unknown'), {
      verdicts,
    });
    second.on('stderr', (line) => stderr.push(line));
    await second.callTool('echo', { text: 'again' });
    expect(stderr.some((line) => line.includes('exiting'))).toBe(false);
  });
});

describe('a server that crashes', () => {
  test('every call waiting on it fails at once with the exit; an idempotent one is sent again; the next call starts it again', async () => {
    const { client } = clientFor(referenceStdio('--era', 'legacy', '--crash-on', 'count'));
    await using _ = client;
    await client.connect();
    // slow is idempotent: the crash under it is survived by sending it to the new process.
    const slow = client.callTool('slow', { ms: 300 });
    const crashed = await client.callTool('count').catch((e: unknown) => e);
    expect(crashed).toBeInstanceOf(ServerExitedError);
    expect(crashed).toMatchObject({ exitCode: 70, signal: null, requestSent: true });
    expect((crashed as ServerExitedError).stderr.join('\n')).toContain('crashing on purpose');
    expect((crashed as Error).message).toContain('exited with code 70');
    expect((await slow).content).toEqual([{ type: 'text', text: 'slept 300 ms' }]);
    // The new process has a session of its own.
    expect((await client.callTool('echo', { text: 'back' })).content).toEqual([
      { type: 'text', text: 'back' },
    ]);
  });

  test('at 2026-07-28 too', async () => {
    const { client } = clientFor(referenceStdio('--crash-on', 'count'));
    await using _ = client;
    await expect(client.callTool('count')).rejects.toMatchObject({
      name: 'ServerExitedError',
      exitCode: 70,
    });
    expect((await client.callTool('add', { a: 1, b: 1 })).structuredContent).toEqual({ sum: 2 });
  });
});

describe('what the server writes', () => {
  test('lines that are not JSON-RPC are warnings; calls go on', async () => {
    const { client, warnings } = clientFor(referenceStdio('--garbage'));
    await using _ = client;
    expect((await client.callTool('echo', { text: 'x' })).content).toEqual([
      { type: 'text', text: 'x' },
    ]);
    expect(warnings.length).toBeGreaterThan(0);
    expect(
      warnings.every((warning) => (warning as { code?: string }).code === 'MALFORMED_MESSAGE'),
    ).toBe(true);
  });

  test('a line over maxResponseBytes fails its own call (or is a warning when it answers none)', async () => {
    const { client, warnings } = clientFor(referenceStdio('--huge-line', '300000'), {
      maxResponseBytes: 200_000,
    });
    await using _ = client;
    expect((await client.listTools()).length).toBeGreaterThan(0);
    expect(warnings.some((warning) => warning instanceof ResponseTooLargeError)).toBe(true);
    await expect(client.callTool('large', { bytes: 250_000 })).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
    expect((await client.callTool('large', { bytes: 1_000 })).isError).toBe(false);
  });
});

describe('close() leaves nothing', () => {
  test('no handle and no process, even for a server that ignores the end of its input and SIGTERM', async () => {
    const baseline = await settledHandles();
    const before = childrenOf(process.pid);
    const { client, stderr } = clientFor(
      referenceStdio('--ignore-eof', '--ignore-sigterm', '--grandchild'),
    );
    await client.callTool('echo', { text: 'x' });
    await waitFor(() => stderr.some((line) => line.startsWith('grandchild pid')));
    const grandchild = grandchildPid(stderr);
    const server = childrenOf(process.pid).filter((pid) => !before.includes(pid));
    expect(server).toHaveLength(1);
    expect(running(grandchild)).toBe(true);
    await client.close();
    expect(running(server[0]!)).toBe(false);
    expect(running(grandchild)).toBe(false);
    expect(stderr.some((line) => line.includes('SIGTERM ignored'))).toBe(true);
    await waitFor(() => handles() <= baseline);
  });
});

describe('options that are HTTP only', () => {
  test.each(['headers', 'dispatcher', 'auth'])('%s refuses with a TypeError', (name) => {
    expect(() => createMcpClient(referenceStdio(), { [name]: {} } as never)).toThrow(TypeError);
  });

  test('so do the HTTP dialects', () => {
    expect(() => createMcpClient(referenceStdio(), { dialect: 'webtools' })).toThrow(TypeError);
  });
});
