/**
 * Calls against the reference server: every kind of tool result, output validation, progress
 * and deadlines, cancellation, limits, and the resource, prompt, completion and logging methods.
 */
import {
  AbortedError,
  createMcpClient,
  OutputValidationError,
  ResponseTooLargeError,
  TimeoutError,
  ToolNotFoundError,
} from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { expect, test } from 'vitest';
import { posts, rpcBody, waitFor } from './helpers.ts';

test('a text tool returns its text', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  expect(await client.callTool('echo', { text: 'hello' })).toEqual({
    content: [{ type: 'text', text: 'hello' }],
    isError: false,
  });
});

test('structuredContent that matches the outputSchema is returned with the content', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const result = await client.callTool('add', { a: 2, b: 40 });
  expect(result.structuredContent).toEqual({ sum: 42 });
  expect(result.isError).toBe(false);
});

test('structuredContent that breaks the outputSchema is an OutputValidationError keeping the raw result', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const error = await client.callTool('bad_structure').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OutputValidationError);
  expect((error as OutputValidationError).problems.join()).toContain('/sum');
  expect((error as OutputValidationError).result).toMatchObject({
    structuredContent: { sum: 'not a number' },
  });
});

test('a tool failure comes back as a result with isError, not as an exception', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const result = await client.callTool('fail', { message: 'nope' });
  expect(result.isError).toBe(true);
  expect(result.content[0]).toMatchObject({ type: 'text' });
});

test('all five content kinds come back typed', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const { content } = await client.callTool('media');
  expect(content.map((block) => block.type).sort()).toEqual([
    'audio',
    'image',
    'resource',
    'resource_link',
  ]);
  expect(content.find((b) => b.type === 'image')).toMatchObject({
    mimeType: 'image/png',
    data: expect.any(String),
  });
  expect(content.find((b) => b.type === 'audio')).toMatchObject({
    mimeType: expect.stringContaining('audio/'),
    data: expect.any(String),
  });
  expect(content.find((b) => b.type === 'resource_link')).toMatchObject({
    uri: 'ref://static/hello',
    name: expect.any(String),
  });
  expect(content.find((b) => b.type === 'resource')).toMatchObject({
    resource: { uri: 'ref://static/hello', text: expect.any(String) },
  });
});

test('progress reaches onProgress in order, with the token the client sent', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const seen: Array<{
    progress: number;
    total?: number | undefined;
    message?: string | undefined;
  }> = [];
  await client.callTool('progress', { steps: 3, delayMs: 1 }, { onProgress: (p) => seen.push(p) });
  expect(seen).toEqual([
    { progress: 1, total: 3, message: 'step 1' },
    { progress: 2, total: 3, message: 'step 2' },
    { progress: 3, total: 3, message: 'step 3' },
  ]);
  const [call] = posts(server, 'tools/call');
  const body = rpcBody(call?.body);
  expect(body.params?.['_meta']).toEqual({ progressToken: body.id });
});

test('no progress token is sent when no onProgress is given', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  await client.callTool('progress', { steps: 2, delayMs: 1 });
  const [call] = posts(server, 'tools/call');
  expect(rpcBody(call?.body).params?.['_meta']).toBeUndefined();
});

test('progress pushes the deadline back: a call longer than timeoutMs succeeds while it reports', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  // 5 steps 150 ms apart take ~750 ms, well past the 500 ms timeout, but each step restarts it
  // (350 ms of slack per step keeps a loaded machine from failing it).
  const result = await client.callTool(
    'progress',
    { steps: 5, delayMs: 150 },
    { timeoutMs: 500, onProgress: () => {} },
  );
  expect(result.content).toEqual([{ type: 'text', text: 'done after 5 steps' }]);
});

test('progress never pushes the deadline past maxTimeoutMs', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { maxTimeoutMs: 250 });
  const error = await client
    .callTool('progress', { steps: 20, delayMs: 50 }, { timeoutMs: 200, onProgress: () => {} })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TimeoutError);
});

test('aborting a slow call cancels it on the server, which never answers it', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const controller = new AbortController();
  const call = client.callTool('slow', { ms: 5_000 }, { signal: controller.signal });
  await waitFor(() => posts(server, 'tools/call').length === 1);
  controller.abort(new Error('changed my mind'));
  await expect(call).rejects.toBeInstanceOf(AbortedError);
  await waitFor(() => server.cancelled.length === 1);
  const requestId = rpcBody(posts(server, 'tools/call')[0]?.body).id;
  expect(server.cancelled[0]).toMatchObject({ requestId });
});

test.each([
  ['a session (Streamable HTTP)', 'stateful'],
  ['HTTP+SSE', 'sse'],
] as const)(
  'a call aborted just before close() is still cancelled on the server (%s)',
  async (_, endpoint) => {
    // What a command line does on Ctrl-C: abort the call, then close the client at once.
    await using server = await startReferenceServer();
    const client = createMcpClient(server.urls[endpoint]);
    const controller = new AbortController();
    const call = client.callTool('slow', { ms: 5_000 }, { signal: controller.signal });
    await waitFor(() => posts(server, 'tools/call').length === 1);
    controller.abort(new Error('Ctrl-C'));
    await expect(call).rejects.toBeInstanceOf(AbortedError);
    await client.close();
    expect(server.cancelled).toHaveLength(1);
  },
);

test('a body over maxResponseBytes or an event over maxEventSize is refused', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { maxEventSize: 10_000 });
  await expect(client.callTool('large', { bytes: 50_000 })).rejects.toBeInstanceOf(
    ResponseTooLargeError,
  );
  await using jsonClient = createMcpClient(server.urls.statefulJson, { maxResponseBytes: 10_000 });
  await expect(jsonClient.callTool('large', { bytes: 50_000 })).rejects.toBeInstanceOf(
    ResponseTooLargeError,
  );
  // A result within the limit is fine.
  const fits = await jsonClient.callTool('large', { bytes: 5_000 });
  const [block] = fits.content;
  expect(block?.type === 'text' && block.text.length).toBe(5_000);
});

test('503 with Retry-After is waited out and retried', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { retry: { minDelayMs: 1 } });
  await client.listTools();
  server.faults.failNext(2, { status: 503, retryAfter: '0', method: 'tools/call' });
  expect((await client.callTool('count')).content).toEqual([{ type: 'text', text: '1' }]);
  expect(posts(server, 'tools/call')).toHaveLength(3);
});

test('calling a tool the server does not have is a ToolNotFoundError listing the ones it has', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const error = await client.callTool('no_such_tool').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ToolNotFoundError);
  expect((error as ToolNotFoundError).available).toContain('echo');
  expect(error).toMatchObject({ code: 'TOOL_NOT_FOUND', tool: 'no_such_tool' });
});

test('resources: every page listed, static text and blob read, templates listed and read', async () => {
  await using server = await startReferenceServer({ pageSize: 5 });
  await using client = createMcpClient(server.url);
  const resources = await client.listResources();
  expect(resources.map((r) => r.uri)).toEqual(
    expect.arrayContaining([
      'ref://static/hello',
      'ref://static/blob',
      'ref://counter',
      'ref://items/12',
    ]),
  );
  expect(posts(server, 'resources/list').length).toBeGreaterThan(1);
  expect((await client.readResource('ref://static/hello')).contents[0]).toMatchObject({
    text: 'hello, world',
  });
  expect((await client.readResource('ref://static/blob')).contents[0]).toMatchObject({
    blob: Buffer.from([...Array(16).keys()]).toString('base64'),
  });
  expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toContain(
    'ref://items/{id}',
  );
  expect((await client.readResource('ref://items/99')).contents[0]?.uri).toBe('ref://items/99');
});

test('a subscribed resource sends resourceUpdated when it changes', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  await client.subscribeResource('ref://counter');
  const updated = new Promise<string>((resolve) => client.on('resourceUpdated', resolve));
  await client.callTool('bump');
  expect(await updated).toBe('ref://counter');
  await client.unsubscribeResource('ref://counter');
});

test('prompts: listed, and got with their arguments', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  expect((await client.listPrompts()).map((p) => p.name)).toEqual(
    expect.arrayContaining(['greet', 'summarize']),
  );
  const formal = await client.getPrompt('greet', { name: 'Ada', style: 'formal' });
  const pirate = await client.getPrompt('greet', { name: 'Ada', style: 'pirate' });
  expect(formal.messages[0]?.role).toBe('user');
  expect(JSON.stringify(formal.messages)).toContain('Ada');
  expect(formal.messages).not.toEqual(pirate.messages);
});

test('completion suggests prompt argument values and template variables', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const styles = await client.complete(
    { type: 'ref/prompt', name: 'greet' },
    { name: 'style', value: 'p' },
  );
  expect(styles.completion.values).toEqual(['pirate']);
  const ids = await client.complete(
    { type: 'ref/resource', uri: 'ref://items/{id}' },
    { name: 'id', value: '1' },
  );
  expect(ids.completion.values).toEqual(expect.arrayContaining(['1', '10', '11', '12']));
});

test('setLoggingLevel filters the log events the server sends', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const levels: string[] = [];
  client.on('log', (message) => levels.push(message.level));
  await client.setLoggingLevel('warning');
  await client.callTool('log', { level: 'info', message: 'quiet' });
  await client.callTool('log', { level: 'error', message: 'loud' });
  await waitFor(() => levels.length > 0);
  expect(levels).toEqual(['error']);
});

test('a tool the server dropped before its notice arrived is a ToolNotFoundError, not a raw -32602', async () => {
  await using server = await startReferenceServer();
  // No GET stream: this client never hears that the list changed.
  await using deaf = createMcpClient(server.url, { listen: false });
  await using other = createMcpClient(server.url);
  await other.callTool('toggle_tool'); // adds `bonus`
  expect((await deaf.listTools()).map((tool) => tool.name)).toContain('bonus');
  await other.callTool('toggle_tool'); // removes it again
  const error = await deaf.callTool('bonus').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ToolNotFoundError);
  expect((error as ToolNotFoundError).available).not.toContain('bonus');
});
