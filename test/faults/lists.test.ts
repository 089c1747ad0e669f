/**
 * Lists under a hostile server: one deadline for every page, a bound on pages, and entries that
 * are not tools dropped with a warning rather than thrown at the caller.
 */
import { createMcpClient, TimeoutError, TooManyPagesError } from '@toolwire/client';
import { HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { mcpServer, result, startFaultServer } from '../helpers/fault-server.ts';
import { modernServer } from '../helpers/modern-server.ts';

const pinned = { listen: false, protocolVersion: '2025-11-25' } as const;

/** tools/list answers one tool per page and a new cursor every time, after `delayMs`. */
function endlessPages(delayMs: number) {
  let page = 0;
  return mcpServer(async (message) => {
    if (message.method !== 'tools/list') return undefined;
    page += 1;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return result(message.id, {
      tools: [{ name: `t${page}`, inputSchema: { type: 'object' } }],
      nextCursor: `c${page}`,
    });
  });
}

test('one deadline covers every page of a list', async () => {
  await using server = await startFaultServer(endlessPages(5));
  await using client = createMcpClient(server.url, pinned);
  await client.connect();
  // 1,000 pages at 5 ms each take far longer than the deadline: the listing must end with it.
  const error = await client.listTools({ timeoutMs: 300 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TimeoutError);
  expect(error).toMatchObject({ method: 'tools/list', mayHaveRun: true, retryable: true });
  expect(server.callsOf('tools/list').length).toBeLessThan(1_000);
});

test('a list longer than maxPages ends with TooManyPagesError', async () => {
  await using server = await startFaultServer(endlessPages(0));
  await using client = createMcpClient(server.url, { ...pinned, maxPages: 5 });
  const error = await client.listTools().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TooManyPagesError);
  expect(error).toMatchObject({ code: 'TOO_MANY_PAGES', pages: 5, method: 'tools/list' });
  expect(server.callsOf('tools/list')).toHaveLength(5);
});

test('null and malformed tool entries are dropped with a warning, the rest listed', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/list'
        ? result(message.id, {
            tools: [
              null,
              42,
              { description: 'no name' },
              { name: 'no_schema' },
              { name: 'ok', inputSchema: { type: 'object' } },
            ],
          })
        : undefined,
    ),
  );
  await using client = createMcpClient(server.url, pinned);
  const warnings: Error[] = [];
  client.on('warning', (error) => warnings.push(error));
  const tools = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(['ok']);
  expect(warnings).toHaveLength(4);
  expect(
    warnings.every((warning) => (warning as { code?: string }).code === 'MALFORMED_MESSAGE'),
  ).toBe(true);
  await expect(client.callTool('ok')).resolves.toMatchObject({ isError: false });
});

test('a tools/list result whose tools is null is a typed error', async () => {
  await using server = await startFaultServer(
    mcpServer((message) =>
      message.method === 'tools/list'
        ? HttpResponse.json({ jsonrpc: '2.0', id: message.id, result: { tools: null } })
        : undefined,
    ),
  );
  await using client = createMcpClient(server.url, pinned);
  await expect(client.listTools()).rejects.toMatchObject({ code: 'MALFORMED_MESSAGE' });
});

test('a tool whose schema nests hundreds of levels deep is dropped with a warning (found by the fuzz)', async () => {
  let deep: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < 500; level++) {
    deep = { type: 'object', properties: { d: deep } };
  }
  await using server = await startFaultServer(
    modernServer({ tools: [{ name: 'abyss', inputSchema: deep }] }),
  );
  await using client = createMcpClient(server.url, {
    listen: false,
    protocolVersion: '2026-07-28',
  });
  const warnings: Error[] = [];
  client.on('warning', (error) => warnings.push(error));
  const tools = await client.listTools();
  expect(tools.map((tool) => tool.name)).not.toContain('abyss');
  expect(tools.map((tool) => tool.name)).toContain('echo');
  expect(warnings.map((warning) => warning.message).join()).toContain('nested deeper than');
});
