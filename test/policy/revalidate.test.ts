/**
 * Lists revalidated by their ETag, counted by what the server answered: a listing fetched again
 * (refreshed, or expired) asks with `If-None-Match`, and a 304 keeps the whole kept listing
 * without reading its later pages; a changed list is read again page by page; a server that
 * sends no ETag is asked as before. Over both Streamable HTTP channels: with a session
 * (2025-11-25) and without (2026-07-28).
 */
import { createMcpClient } from '@toolwire/client';
import { HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { mcpServer, startFaultServer } from '../helpers/fault-server.ts';
import { modernServer } from '../helpers/modern-server.ts';

/** A two-page tools/list whose version the test bumps; it counts what it answered. */
function pagedList(etags: boolean) {
  const seen = { full: 0, notModified: 0, pages: 0, asked: [] as (string | null)[], version: 1 };
  const answer = (
    message: { id?: string | number; method?: string; params?: Record<string, unknown> },
    request: Request,
  ): Response | undefined => {
    if (message.method !== 'tools/list') return undefined;
    seen.pages += 1;
    const cursor = message.params?.['cursor'];
    const etag = `"v${seen.version}"`;
    if (cursor === undefined) {
      seen.asked.push(request.headers.get('if-none-match'));
      if (etags && request.headers.get('if-none-match') === etag) {
        seen.notModified += 1;
        return new HttpResponse(null, { status: 304, headers: { etag } });
      }
      seen.full += 1;
    }
    const tool = (name: string) => ({
      name: `${name}${seen.version}`,
      inputSchema: { type: 'object' },
    });
    const result =
      cursor === undefined
        ? { tools: [tool('first')], nextCursor: 'page-2' }
        : { tools: [tool('second')] };
    return HttpResponse.json(
      { jsonrpc: '2.0', id: message.id, result },
      { headers: etags ? { etag } : {} },
    );
  };
  return { seen, answer };
}

const ERAS = [
  {
    era: 'with a session (2025-11-25)',
    server: (answer: ReturnType<typeof pagedList>['answer']) => mcpServer(answer),
    options: {},
  },
  {
    era: 'without a session (2026-07-28)',
    server: (answer: ReturnType<typeof pagedList>['answer']) => modernServer({ override: answer }),
    options: { protocolVersion: '2026-07-28' as const },
  },
];

for (const { era, server: handlers, options } of ERAS) {
  test(`a refreshed list is revalidated by its ETag: a 304 keeps every page, ${era}`, async () => {
    const { seen, answer } = pagedList(true);
    await using server = await startFaultServer(handlers(answer));
    await using client = createMcpClient(server.url, { listen: false, ...options });
    const first = await client.listTools();
    expect(first.map((tool) => tool.name)).toEqual(['first1', 'second1']);
    expect(seen).toMatchObject({ full: 1, notModified: 0, pages: 2 });

    const again = await client.listTools({ refresh: true });
    // One request, answered 304: the second page was not read again, the listing is the same.
    expect(seen).toMatchObject({ full: 1, notModified: 1, pages: 3 });
    expect(seen.asked).toEqual([null, '"v1"']);
    expect(again).toBe(first);

    seen.version = 2;
    const changed = await client.listTools({ refresh: true });
    expect(seen).toMatchObject({ full: 2, notModified: 1, pages: 5 });
    expect(changed.map((tool) => tool.name)).toEqual(['first2', 'second2']);

    // The new ETag is the one asked with next.
    await client.listTools({ refresh: true });
    expect(seen.asked).toEqual([null, '"v1"', '"v1"', '"v2"']);
    expect(seen).toMatchObject({ full: 2, notModified: 2, pages: 6 });
  });

  test(`a server without ETags is asked as before, ${era}`, async () => {
    const { seen, answer } = pagedList(false);
    await using server = await startFaultServer(handlers(answer));
    await using client = createMcpClient(server.url, { listen: false, ...options });
    await client.listTools();
    const again = await client.listTools({ refresh: true });
    expect(again.map((tool) => tool.name)).toEqual(['first1', 'second1']);
    expect(seen).toMatchObject({ full: 2, notModified: 0, pages: 4 });
    expect(seen.asked).toEqual([null, null]);
  });
}
