/**
 * The GET stream is reopened when it breaks, resuming with Last-Event-ID, and given up after a
 * bounded number of failures in a row, which is reported as a warning, never thrown.
 */
import { createMcpClient } from '@toolwire/client';
import { HttpResponse, http } from 'msw';
import { expect, test } from 'vitest';
import { mcpServer, sseBody, sseEvent, startFaultServer } from '../helpers/fault-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

const listChanged = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };

test('a GET stream that ends is reopened with the last event id, and its messages keep arriving', async () => {
  let opened = 0;
  const get = http.get('*/mcp', () => {
    opened += 1;
    return opened <= 2
      ? sseBody([sseEvent(listChanged, `g-${opened}`)])
      : new Promise<Response>(() => {});
  });
  await using server = await startFaultServer([get, ...mcpServer(() => undefined)]);
  await using client = createMcpClient(server.url, { retry: { minDelayMs: 1, maxDelayMs: 5 } });
  let changes = 0;
  client.on('toolsChanged', () => {
    changes += 1;
  });
  await client.connect();
  await waitFor(() => opened === 3);
  const gets = server.calls.filter((call) => call.method === 'GET');
  expect(gets.map((call) => call.headers.get('last-event-id'))).toEqual([null, 'g-1', 'g-2']);
  expect(changes).toBe(2);
});

test('a GET stream that keeps failing is given up after reconnectAttempts, with a warning', async () => {
  const get = http.get('*/mcp', () => new HttpResponse('down', { status: 500 }));
  await using server = await startFaultServer([get, ...mcpServer(() => undefined)]);
  await using client = createMcpClient(server.url, {
    reconnectAttempts: 3,
    retry: { minDelayMs: 1, maxDelayMs: 5 },
  });
  const warned = new Promise<Error>((resolve) => client.on('warning', resolve));
  await client.connect();
  const warning = await warned;
  expect(warning).toMatchObject({ code: 'HTTP_STATUS', status: 500, method: 'GET' });
  expect(server.calls.filter((call) => call.method === 'GET')).toHaveLength(4);
  // Calls are not affected by the missing stream.
  await expect(client.listTools()).resolves.toHaveLength(2);
});

test('a server without a GET stream (405) is asked once', async () => {
  await using server = await startFaultServer(mcpServer(() => undefined));
  await using client = createMcpClient(server.url);
  await client.listTools();
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(server.calls.filter((call) => call.method === 'GET')).toHaveLength(1);
});
