/**
 * Running webtool actions: the envelope sent (action, request, the pinned or fetched version, a
 * sessionId stable for the client's life, config from the application merged over the defaults)
 * and each answer: `ok` as structured content plus text, `error` as a WebtoolError by code.
 */
import { createMcpClient, ToolNotFoundError, WebtoolError } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.ts';

const config = { apiKey: 'test-key' };
const fast = { retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 } };

function posts(server: { log: { httpMethod: string; body: unknown }[] }) {
  return server.log.filter((entry) => entry.httpMethod === 'POST').map((entry) => entry.body);
}

test('ok: data is the structured content (checked against responseSchema) and the text', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.webtools, {
    dialect: 'webtools',
    webtools: { config },
  });
  const result = await client.callTool('get_current', { location: 'Paris' });
  expect(result.isError).toBe(false);
  expect(result.structuredContent).toEqual({
    location: 'Paris',
    temperature: expect.any(Number),
    units: 'metric',
    conditions: expect.any(String),
  });
  expect(result.content).toEqual([
    { type: 'text', text: JSON.stringify(result.structuredContent) },
  ]);
});

test('each POST carries action, request, the fetched version, config and one sessionId', async () => {
  await using server = await startReferenceServer();
  const webtools = { config: { apiKey: 'k', units: 'imperial' } };
  {
    await using client = createMcpClient(server.urls.webtools, { dialect: 'webtools', webtools });
    await client.callTool('get_current', { location: 'Oslo' });
    await client.callTool('get_forecast', { location: 'Oslo', days: 2 });
  }
  {
    await using other = createMcpClient(server.urls.webtools, { dialect: 'webtools', webtools });
    await other.callTool('get_current', { location: 'Oslo' });
  }
  const [first, second, third] = posts(server) as Record<string, unknown>[];
  expect(first).toEqual({
    sessionId: expect.any(String),
    version: '2.0.0',
    action: 'get_current',
    config: { units: 'imperial', apiKey: 'k' },
    request: { location: 'Oslo' },
  });
  expect(second).toMatchObject({ action: 'get_forecast', request: { location: 'Oslo', days: 2 } });
  // Stable for a client's life, and its own: not one per call, not shared between clients.
  expect(second?.['sessionId']).toBe(first?.['sessionId']);
  expect(third?.['sessionId']).not.toBe(first?.['sessionId']);
});

test('the defaultConfig fills what the application leaves out; a given sessionId is used', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.webtools, {
    dialect: 'webtools',
    webtools: { config, sessionId: 'conversation-42' },
  });
  await client.callTool('get_current', { location: 'Rome' });
  expect(posts(server)[0]).toMatchObject({
    sessionId: 'conversation-42',
    config: { units: 'metric', apiKey: 'test-key' },
  });
});

describe('error codes', () => {
  test('SCHEMA_ERROR: the request does not match the requestSchema', async () => {
    await using server = await startReferenceServer();
    await using client = createMcpClient(server.urls.webtools, {
      dialect: 'webtools',
      webtools: { config },
    });
    const error = await client
      .callTool('get_forecast', { location: 'Oslo', days: 30 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebtoolError);
    expect(error).toMatchObject({ webtoolCode: 'SCHEMA_ERROR', status: 400, retryable: false });
  });

  test('CONFIG_ERROR: a config that breaks configSchema fails at connect, before any POST', async () => {
    await using server = await startReferenceServer();
    await using client = createMcpClient(server.urls.webtools, {
      dialect: 'webtools',
      webtools: { config: { units: 'kelvin' } },
    });
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebtoolError);
    expect((error as WebtoolError).webtoolCode).toBe('CONFIG_ERROR');
    expect((error as Error).message).toMatch(/apiKey/);
    expect(posts(server)).toEqual([]);
  });

  test('RATE_LIMIT is retried as the server asks; when it persists it is a retryable WebtoolError', async () => {
    await using server = await startReferenceServer();
    await using client = createMcpClient(server.urls.webtools, {
      dialect: 'webtools',
      webtools: { config },
      ...fast,
    });
    // Queueville limits a session's first call only: the retry gets through.
    const passed = await client.callTool('get_current', { location: 'Queueville' });
    expect(passed.isError).toBe(false);
    expect(posts(server)).toHaveLength(2);
    const error = await client.callTool('get_current', { location: 'Busytown' }).catch((e) => e);
    expect(error).toBeInstanceOf(WebtoolError);
    expect(error).toMatchObject({ webtoolCode: 'RATE_LIMIT', status: 429, retryable: true });
    expect(posts(server)).toHaveLength(2 + 3);
  });

  test('INTERNAL_ERROR is not retried for a call that may have run', async () => {
    await using server = await startReferenceServer();
    await using client = createMcpClient(server.urls.webtools, {
      dialect: 'webtools',
      webtools: { config },
      ...fast,
    });
    const error = await client.callTool('get_current', { location: 'Atlantis' }).catch((e) => e);
    expect(error).toMatchObject({ webtoolCode: 'INTERNAL_ERROR', status: 500, retryable: false });
    expect(posts(server)).toHaveLength(1);
  });

  test('WEBTOOL_NOT_FOUND: a pinned version the server does not have', async () => {
    await using server = await startReferenceServer();
    await using client = createMcpClient(server.urls.webtools, {
      dialect: 'webtools',
      webtools: { config, version: '9.9.9' },
    });
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebtoolError);
    expect(error).toMatchObject({ webtoolCode: 'WEBTOOL_NOT_FOUND', status: 404 });
    expect(server.log.map((entry) => entry.path)).toEqual(['/webtools/weather/9.9.9']);
  });

  test("a webtool's own code, and a server-side CONFIG_ERROR, come through as they are", async () => {
    let reply = { code: 'INVALID_INPUT', message: "Validation failed for field 'location'" };
    await using server = await startFaultServer([
      http.get('*/mcp/', () => HttpResponse.json({ name: 'w', actions: [{ name: 'go' }] })),
      http.post('*/mcp/', () =>
        HttpResponse.json({ status: 'error', error: reply }, { status: 400 }),
      ),
    ]);
    await using client = createMcpClient(server.url, { dialect: 'webtools' });
    await expect(client.callTool('go')).rejects.toMatchObject({ webtoolCode: 'INVALID_INPUT' });
    reply = { code: 'CONFIG_ERROR', message: 'apiKey revoked' };
    await expect(client.callTool('go')).rejects.toMatchObject({
      webtoolCode: 'CONFIG_ERROR',
      message: expect.stringContaining('apiKey revoked'),
    });
  });

  test('an action the metadata does not list is a ToolNotFoundError, with no POST', async () => {
    await using server = await startReferenceServer();
    await using client = createMcpClient(server.urls.webtools, {
      dialect: 'webtools',
      webtools: { config, version: '1.0.0' },
    });
    const error = await client
      .callTool('get_forecast', { location: 'Oslo', days: 1 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ToolNotFoundError);
    expect((error as ToolNotFoundError).available).toEqual(['get_current']);
    expect(posts(server)).toEqual([]);
  });

  test('an answer that is no envelope is a MalformedMessageError', async () => {
    await using server = await startFaultServer([
      http.get('*/mcp/', () => HttpResponse.json({ name: 'w', actions: [{ name: 'go' }] })),
      http.post('*/mcp/', () => HttpResponse.json({ result: 42 })),
    ]);
    await using client = createMcpClient(server.url, { dialect: 'webtools' });
    await expect(client.callTool('go')).rejects.toMatchObject({ code: 'MALFORMED_MESSAGE' });
  });
});
