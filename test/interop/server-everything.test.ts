/**
 * The client against `@modelcontextprotocol/server-everything`, the reference server built to
 * exercise every feature a client may meet, run from its own `streamableHttp` entry point in a
 * child process: stateful, SSE answers, event ids (and 2025-11-25 priming events) for resumption.
 *
 * Its tools for roots, elicitation and sampling (`get-roots-list`, `trigger-elicitation-request`,
 * `trigger-url-elicitation`, `trigger-sampling-request`) exist only for clients that declare those
 * capabilities: they are answered by the handlers in test/handlers/independent-servers.test.ts,
 * and here, without handlers, the test checks that they stay away. Not covered: their `-async`
 * variants, which ask the client to run the request as a task of its own (client-hosted tasks,
 * which toolwire does not offer), and its `sse` entry point, the deprecated HTTP+SSE transport,
 * which the client reaches only as a fallback (tested against the official 1.x server).
 */
import { gunzipSync } from 'node:zlib';
import { type CallStatus, createMcpClient, type LogMessage } from '@toolwire/client';
import { expect, test } from 'vitest';
import { startEverythingServer } from '../helpers/everything-server.ts';
import { handles, settledHandles } from '../helpers/handles.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { watchWire } from '../helpers/wire-watch.ts';

test('negotiates 2025-11-25 and lists every tool a client without roots, elicitation or sampling gets', async () => {
  await using server = await startEverythingServer();
  await using client = createMcpClient(server.url);
  const tools = await client.listTools();
  expect(client.protocolVersion).toBe('2025-11-25');
  expect(client.serverInfo).toMatchObject({ name: 'mcp-servers/everything', version: '2.0.0' });
  expect(client.serverCapabilities).toMatchObject({
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    completions: {},
  });
  expect(client.instructions).toContain('Everything Server');
  expect(tools.map((tool) => tool.name).sort()).toEqual([
    'echo',
    'get-annotated-message',
    'get-env',
    'get-resource-links',
    'get-resource-reference',
    'get-structured-content',
    'get-sum',
    'get-tiny-image',
    'gzip-file-as-resource',
    'simulate-research-query',
    'toggle-simulated-logging',
    'toggle-subscriber-updates',
    'trigger-long-running-operation',
  ]);
});

test('calls text, annotated, image, resource-link, embedded-resource and environment tools', async () => {
  await using server = await startEverythingServer();
  await using client = createMcpClient(server.url);
  expect((await client.callTool('echo', { message: 'hi' })).content).toEqual([
    { type: 'text', text: 'Echo: hi' },
  ]);
  expect((await client.callTool('get-sum', { a: 2, b: 3 })).content).toEqual([
    { type: 'text', text: 'The sum of 2 and 3 is 5.' },
  ]);

  const image = await client.callTool('get-tiny-image');
  expect(image.content.map((block) => block.type)).toEqual(['text', 'image', 'text']);
  expect(image.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });

  const annotated = await client.callTool('get-annotated-message', {
    messageType: 'error',
    includeImage: true,
  });
  expect(annotated.content).toEqual([
    {
      type: 'text',
      text: 'Error: Operation failed',
      annotations: { priority: 1, audience: ['user', 'assistant'] },
    },
    expect.objectContaining({ type: 'image', annotations: { priority: 0.5, audience: ['user'] } }),
  ]);

  const links = await client.callTool('get-resource-links', { count: 2 });
  expect(links.content.slice(1)).toEqual([
    expect.objectContaining({ type: 'resource_link', uri: 'demo://resource/dynamic/blob/1' }),
    expect.objectContaining({ type: 'resource_link', uri: 'demo://resource/dynamic/text/2' }),
  ]);

  const embedded = await client.callTool('get-resource-reference', {
    resourceType: 'Blob',
    resourceId: 2,
  });
  const resource = embedded.content.find((block) => block.type === 'resource');
  expect(resource?.resource.uri).toBe('demo://resource/dynamic/blob/2');
  const blob = resource && 'blob' in resource.resource ? resource.resource.blob : '';
  expect(Buffer.from(blob, 'base64').toString()).toMatch(/^Resource 2: This is a base64 blob/);

  const env = await client.callTool('get-env');
  expect(env.content[0]?.type === 'text' && JSON.parse(env.content[0].text)).toEqual(server.env);
});

test('returns structured content that matches the declared outputSchema', async () => {
  await using server = await startEverythingServer();
  await using client = createMcpClient(server.url);
  const tool = (await client.listTools()).find((t) => t.name === 'get-structured-content');
  expect(tool?.outputSchema).toMatchObject({ type: 'object', required: expect.any(Array) });
  const result = await client.callTool('get-structured-content', { location: 'Chicago' });
  expect(result.isError).toBe(false);
  expect(result.structuredContent).toEqual({
    temperature: 36,
    conditions: 'Light rain / drizzle',
    humidity: 82,
  });
});

test('returns failing tools and invalid arguments as isError results', async () => {
  await using server = await startEverythingServer();
  await using client = createMcpClient(server.url);
  const failed = await client.callTool('get-resource-reference', {
    resourceType: 'Text',
    resourceId: 0,
  });
  expect(failed).toMatchObject({ isError: true, content: [{ type: 'text' }] });
  expect(failed.content[0]).toMatchObject({ text: expect.stringContaining('Invalid resourceId') });

  // The SDK turns an input validation failure into a tool error rather than a JSON-RPC error.
  const invalid = await client.callTool('echo', { message: 42 });
  expect(invalid.isError).toBe(true);
  expect(invalid.content[0]).toMatchObject({ text: expect.stringContaining('Input validation') });
});

test('runs a tool that requires a 2025-11-25 task as one, and waits for its result', async () => {
  await using server = await startEverythingServer();
  await using client = createMcpClient(server.url);
  const research = (await client.listTools()).find((t) => t.name === 'simulate-research-query');
  expect(research?.execution).toEqual({ taskSupport: 'required' });
  const statuses: CallStatus[] = [];
  const result = await client.callTool(
    'simulate-research-query',
    { topic: 'tides' },
    { onStatus: (status) => statuses.push(status) },
  );
  expect(result.isError).toBe(false);
  expect(result.content[0]).toMatchObject({
    text: expect.stringContaining('Research Report: tides'),
  });
  // The server's own words on each stage reach the caller, between pending and done.
  expect(statuses[0]).toMatchObject({ state: 'pending', handle: { kind: 'task' } });
  expect(statuses.at(-1)?.state).toBe('done');
  expect(statuses.some((status) => status.state === 'working' && status.message)).toBe(true);
});

test('reports the progress of a long-running operation', async () => {
  await using server = await startEverythingServer();
  await using client = createMcpClient(server.url);
  const seen: Array<{ progress: number; total: number | undefined }> = [];
  const result = await client.callTool(
    'trigger-long-running-operation',
    { duration: 0.06, steps: 3 },
    { onProgress: ({ progress, total }) => seen.push({ progress, total }) },
  );
  expect(result.content[0]).toMatchObject({ text: expect.stringContaining('Steps: 3') });
  expect(seen).toEqual([
    { progress: 1, total: 3 },
    { progress: 2, total: 3 },
    { progress: 3, total: 3 },
  ]);
});

test('lists and reads static, templated and blob resources', async () => {
  await using server = await startEverythingServer();
  await using client = createMcpClient(server.url);
  const resources = await client.listResources();
  expect(resources.map((r) => r.uri)).toContain('demo://resource/static/document/features.md');
  const doc = await client.readResource('demo://resource/static/document/features.md');
  expect(doc.contents[0]).toMatchObject({
    mimeType: 'text/markdown',
    text: expect.stringContaining('Everything Server - Features'),
  });

  expect((await client.listResourceTemplates()).map((t) => t.uriTemplate).sort()).toEqual([
    'demo://resource/dynamic/blob/{resourceId}',
    'demo://resource/dynamic/text/{resourceId}',
  ]);
  const text = await client.readResource('demo://resource/dynamic/text/3');
  expect(text.contents[0]).toMatchObject({
    uri: 'demo://resource/dynamic/text/3',
    text: expect.stringMatching(/^Resource 3: This is a plaintext resource/),
  });
  const blob = await client.readResource('demo://resource/dynamic/blob/4');
  expect(blob.contents[0]).toMatchObject({ blob: expect.any(String) });
});

test('hears of a resource a tool adds to the session, then reads it', async () => {
  await using server = await startEverythingServer();
  await using wire = watchWire();
  await using client = createMcpClient(server.url, { dispatcher: wire.dispatcher });
  await client.connect();
  await waitFor(() => wire.openStreams() > 0);
  let changed = 0;
  client.on('resourcesChanged', () => changed++);
  const made = await client.callTool('gzip-file-as-resource', {
    name: 'hello.gz',
    data: `data:text/plain;base64,${Buffer.from('hello, toolwire').toString('base64')}`,
  });
  expect(made.content).toEqual([
    expect.objectContaining({ type: 'resource_link', uri: 'demo://resource/session/hello.gz' }),
  ]);
  await waitFor(() => changed > 0);
  expect((await client.listResources()).map((r) => r.uri)).toContain(
    'demo://resource/session/hello.gz',
  );
  const read = await client.readResource('demo://resource/session/hello.gz');
  const [content] = read.contents;
  expect(content).toMatchObject({ mimeType: 'application/gzip' });
  const gzipped = content && 'blob' in content ? content.blob : '';
  expect(gunzipSync(Buffer.from(gzipped, 'base64')).toString()).toBe('hello, toolwire');
});

test('gets prompts, with arguments and with an embedded resource', async () => {
  await using server = await startEverythingServer();
  await using client = createMcpClient(server.url);
  expect((await client.listPrompts()).map((p) => p.name).sort()).toEqual([
    'args-prompt',
    'completable-prompt',
    'resource-prompt',
    'simple-prompt',
  ]);
  expect((await client.getPrompt('simple-prompt')).messages).toEqual([
    { role: 'user', content: { type: 'text', text: 'This is a simple prompt without arguments.' } },
  ]);
  expect(
    (await client.getPrompt('args-prompt', { city: 'Lyon', state: 'Rhône' })).messages,
  ).toEqual([{ role: 'user', content: { type: 'text', text: "What's weather in Lyon, Rhône?" } }]);
  const withResource = await client.getPrompt('resource-prompt', {
    resourceType: 'Text',
    resourceId: '2',
  });
  expect(withResource.messages[1]?.content).toMatchObject({
    type: 'resource',
    resource: { uri: 'demo://resource/dynamic/text/2', mimeType: 'text/plain' },
  });
});

test('completes prompt arguments, with context, and resource template variables', async () => {
  await using server = await startEverythingServer();
  await using client = createMcpClient(server.url);
  const departments = await client.complete(
    { type: 'ref/prompt', name: 'completable-prompt' },
    { name: 'department', value: 'S' },
  );
  expect(departments.completion.values).toEqual(['Sales', 'Support']);
  const names = await client.complete(
    { type: 'ref/prompt', name: 'completable-prompt' },
    { name: 'name', value: '' },
    { context: { arguments: { department: 'Sales' } } },
  );
  expect(names.completion.values).toEqual(['David', 'Eve', 'Frank']);
  const ids = await client.complete(
    { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
    { name: 'resourceId', value: '4' },
  );
  expect(ids.completion.values).toEqual(['4']);
});

test('receives log messages at the level it set, and updates of a subscribed resource', async () => {
  await using server = await startEverythingServer();
  await using wire = watchWire();
  await using client = createMcpClient(server.url, { dispatcher: wire.dispatcher });
  const logs: LogMessage[] = [];
  const updated: string[] = [];
  client.on('log', (message) => logs.push(message));
  client.on('resourceUpdated', (uri) => updated.push(uri));
  await client.connect();
  await waitFor(() => wire.openStreams() > 0);

  const uri = 'demo://resource/dynamic/text/1';
  await client.setLoggingLevel('info');
  // The server logs every subscription (at info) on the GET stream.
  await client.subscribeResource(uri);
  await waitFor(() => logs.some((log) => String(log.data).includes(uri)));
  expect(logs.find((log) => String(log.data).includes(uri))?.level).toBe('info');

  // Simulated updates start with one at once, then one every 5 s until toggled off.
  await client.callTool('toggle-subscriber-updates');
  await waitFor(() => updated.includes(uri));
  await client.callTool('toggle-subscriber-updates');
  await client.unsubscribeResource(uri);

  // Simulated logging sends one message of a random level at once; 'debug' lets any through.
  // Seven of its eight texts read "<Level>-level message", the alert one "Alert level-message".
  await client.setLoggingLevel('debug');
  const before = logs.length;
  await client.callTool('toggle-simulated-logging');
  await waitFor(() => logs.slice(before).some((log) => /level[- ]message/i.test(String(log.data))));
  await client.callTool('toggle-simulated-logging');
});

test('close() leaves no socket or timer behind', async () => {
  await using server = await startEverythingServer();
  const baseline = await settledHandles();
  const client = createMcpClient(server.url);
  // While the call runs, its socket, its deadline and the GET stream count.
  let during = 0;
  await client.callTool(
    'trigger-long-running-operation',
    { duration: 0.02, steps: 2 },
    {
      onProgress: () => {
        during = handles();
      },
    },
  );
  expect(during).toBeGreaterThan(baseline);
  await client.close();
  // Measured in this process only (the server is another one): a GET stream, a call or a timer
  // the client left behind would keep the count up.
  await waitFor(() => handles() <= baseline);
  expect(handles()).toBeLessThanOrEqual(baseline);
});
