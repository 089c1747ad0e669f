/**
 * Listings from a hostile server: pages without end, each as large as a body may be, must stop
 * at `maxListBytes` with a typed error, whatever the kind of list; and one huge page of tiny
 * items is listed whole.
 */
import { createMcpClient, ResponseTooLargeError } from '@toolwire/client';
import { expect, test } from 'vitest';
import { startHostileServer } from './raw-server.ts';

const MiB = 1024 * 1024;
const pinned = { listen: false, protocolVersion: '2025-11-25' } as const;

/** The kinds of list, each with the key its items come under. */
const LISTS = [
  { method: 'tools/list', key: 'tools', list: 'listTools' },
  { method: 'resources/list', key: 'resources', list: 'listResources' },
  { method: 'resources/templates/list', key: 'resourceTemplates', list: 'listResourceTemplates' },
  { method: 'prompts/list', key: 'prompts', list: 'listPrompts' },
] as const;

/** An item of `key`'s kind, padded to about `bytes`. */
function item(key: string, n: number, bytes: number): string {
  const pad = 'x'.repeat(bytes);
  if (key === 'tools') return `{"name":"t${n}","description":"${pad}","inputSchema":{}}`;
  if (key === 'resourceTemplates')
    return `{"name":"r${n}","uriTemplate":"x://${n}/{id}","description":"${pad}"}`;
  if (key === 'resources') return `{"name":"r${n}","uri":"x://${n}","description":"${pad}"}`;
  return `{"name":"p${n}","description":"${pad}"}`;
}

test.each(LISTS)(
  '$method: endless 1 MiB pages stop at maxListBytes with a typed error',
  async ({ method, key, list }) => {
    let page = 0;
    await using server = await startHostileServer((request) => {
      if (request.method !== method) return undefined;
      page += 1;
      return `{"${key}":[${item(key, page, MiB)}],"nextCursor":"c${page}"}`;
    });
    // maxPages only keeps a client without the byte bound from taking a gigabyte here.
    await using client = createMcpClient(server.url, {
      ...pinned,
      maxListBytes: 4 * MiB,
      maxPages: 50,
    });
    const error = await client[list]().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      family: 'protocol',
      limit: 4 * MiB,
      method,
      retryable: false,
    });
    // Stopped at the page that crossed the bound: memory held no more than that.
    const pages = server.requests.filter((request) => request.method === method);
    expect(pages).toHaveLength(4);
    expect(server.bytesSent).toBeLessThan(5 * MiB);
  },
);

test('a list within maxListBytes is listed whole, and the bound counts every page', async () => {
  let page = 0;
  await using server = await startHostileServer((request) => {
    if (request.method !== 'tools/list') return undefined;
    page += 1;
    const next = page < 3 ? `,"nextCursor":"c${page}"` : '';
    return `{"tools":[${item('tools', page, 100 * 1024)}]${next}}`;
  });
  await using roomy = createMcpClient(server.url, { ...pinned, maxListBytes: 400 * 1024 });
  expect(await roomy.listTools()).toHaveLength(3);
  await using tight = createMcpClient(server.url, { ...pinned, maxListBytes: 250 * 1024 });
  page = 0;
  await expect(tight.listTools()).rejects.toBeInstanceOf(ResponseTooLargeError);
});

test('a page of 200,000 tiny tools is listed whole', async () => {
  const count = 200_000;
  const tools = Array.from({ length: count }, (_, n) => `{"name":"t${n}","inputSchema":{}}`);
  await using server = await startHostileServer((request) =>
    request.method === 'tools/list' ? `{"tools":[${tools.join(',')}]}` : undefined,
  );
  await using client = createMcpClient(server.url, pinned);
  const listed = await client.listTools();
  expect(listed).toHaveLength(count);
  expect(listed.at(-1)?.name).toBe(`t${count - 1}`);
});
