import { createMcpClient } from '@toolwire/client';
import { describe, expect, test } from 'vitest';
import { handles, settledHandles } from '../helpers/handles.ts';
import { startSdkServer } from '../helpers/sdk-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

describe.each(['stateful', 'stateless'] as const)('official SDK server (%s)', (mode) => {
  test('negotiates 2025-11-25 and lists the tools', async () => {
    await using server = await startSdkServer(mode);
    await using client = createMcpClient(server.url);
    const tools = await client.listTools();
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(client.serverInfo?.name).toBe('sdk-interop');
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'add',
      'ask_profile',
      'ask_then_cancel',
      'ask_url',
      'echo',
      'fail',
      'image',
      'progress',
      'roots',
      'summarize',
    ]);
  });

  test('close() leaves no socket or timer behind', async () => {
    await using server = await startSdkServer(mode);
    const baseline = await settledHandles();
    const client = createMcpClient(server.url);
    await client.callTool('echo', { text: 'hi' });
    // The pooled connection (both its ends live in this process) and, stateful, the GET stream.
    expect(handles()).toBeGreaterThan(baseline);
    await client.close();
    await waitFor(() => handles() <= baseline);
    expect(handles()).toBeLessThanOrEqual(baseline);
  });

  test('calls text, structured, image and failing tools', async () => {
    await using server = await startSdkServer(mode);
    await using client = createMcpClient(server.url);
    expect((await client.callTool('echo', { text: 'hi' })).content).toEqual([
      { type: 'text', text: 'hi' },
    ]);
    const added = await client.callTool('add', { a: 2, b: 3 });
    expect(added.structuredContent).toEqual({ sum: 5 });
    expect((await client.callTool('image')).content[0]).toMatchObject({
      type: 'image',
      mimeType: 'image/png',
    });
    const failed = await client.callTool('fail');
    expect(failed.isError).toBe(true);
  });

  test('reports progress while a tool runs', async () => {
    await using server = await startSdkServer(mode);
    await using client = createMcpClient(server.url);
    const seen: number[] = [];
    const result = await client.callTool(
      'progress',
      { steps: 3 },
      { onProgress: (p) => seen.push(p.progress) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
    if (mode === 'stateful') expect(seen).toEqual([1, 2, 3]);
  });

  test('reads resources and gets prompts', async () => {
    await using server = await startSdkServer(mode);
    await using client = createMcpClient(server.url);
    expect((await client.listResources()).map((r) => r.uri)).toContain('sdk://hello');
    expect((await client.readResource('sdk://items/7')).contents[0]).toMatchObject({
      text: 'item 7',
    });
    expect((await client.listResourceTemplates())[0]?.uriTemplate).toBe('sdk://items/{id}');
    const prompt = await client.getPrompt('greet', { name: 'Ada' });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hello, Ada!' });
  });
});
