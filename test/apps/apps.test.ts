/**
 * MCP Apps through the client, against the reference server: the extension declared when the
 * application renders views (and any other extension the application names), in `initialize` and
 * on every 2026-07-28 request; `tool.ui`; app-only tools kept from models; the view read for a host.
 */
import { createMcpClient, readAppResource } from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { expect, test } from 'vitest';
import { posts } from '../reference/helpers.ts';

const UI = 'io.modelcontextprotocol/ui';

/** The capabilities the client declared in its `initialize`. */
function initializeCapabilities(server: ReferenceServer): unknown {
  const [initialize] = posts(server, 'initialize');
  return (initialize!.body as { params: { capabilities: unknown } }).params.capabilities;
}
const AUDIT = { 'com.example/audit': { level: 2 } };

test('a legacy session declares apps and the other extensions in initialize', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { apps: true, extensions: AUDIT });
  await client.connect();
  expect(initializeCapabilities(server)).toEqual({
    extensions: { ...AUDIT, [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } },
  });
});

test('at 2026-07-28 every request declares them, beside the tasks extension', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.urls.modern, { apps: true, extensions: AUDIT });
  await client.listTools();
  await client.callTool('echo', { text: 'hi' });
  const requests = server.log.filter((entry) => entry.httpMethod === 'POST');
  expect(requests.length).toBeGreaterThanOrEqual(3);
  for (const request of requests) {
    const meta = (request.body as { params: { _meta: Record<string, unknown> } }).params._meta;
    expect(meta['io.modelcontextprotocol/clientCapabilities']).toEqual({
      extensions: {
        ...AUDIT,
        [UI]: { mimeTypes: ['text/html;profile=mcp-app'] },
        'io.modelcontextprotocol/tasks': {},
      },
    });
  }
});

test('without apps nothing is declared and the server offers no UI tools', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url);
  const names = (await client.listTools()).map((tool) => tool.name);
  expect(names).not.toContain('counter_view');
  expect(initializeCapabilities(server)).toEqual({});
});

test.each([
  ['a legacy session', 'url'],
  ['2026-07-28', 'modern'],
] as const)(
  '%s: tools carry ui; the app-only tool is kept from models, not from the host',
  async (_label, endpoint) => {
    await using server = await startReferenceServer();
    const url = endpoint === 'url' ? server.url : server.urls.modern;
    await using client = createMcpClient(url, { apps: true });
    const all = await client.listTools();
    const view = all.find((tool) => tool.name === 'counter_view');
    expect(view?.ui).toEqual({
      resourceUri: 'ui://reference/counter-view',
      visibility: ['model', 'app'],
    });
    expect(all.find((tool) => tool.name === 'counter_view_refresh')?.ui?.visibility).toEqual([
      'app',
    ]);
    expect(all.find((tool) => tool.name === 'echo')?.ui).toBeUndefined();

    const forModel = (await client.listTools({ forModel: true })).map((tool) => tool.name);
    expect(forModel).toContain('counter_view');
    expect(forModel).not.toContain('counter_view_refresh');
    // The same listing gives the same array, so adapters rebuild nothing while nothing changed.
    expect(await client.listTools({ forModel: true })).toBe(
      await client.listTools({ forModel: true }),
    );
    // The host may still call it for its view.
    expect((await client.callTool('counter_view_refresh')).structuredContent).toEqual({
      counter: 0,
    });
  },
);

test('readAppResource gives a host the view of a tool: HTML, MIME profile and sandbox metadata', async () => {
  await using server = await startReferenceServer();
  await using client = createMcpClient(server.url, { apps: true });
  const view = (await client.listTools()).find((tool) => tool.name === 'counter_view')!;
  const app = await readAppResource(client, view);
  expect(app).toMatchObject({
    uri: 'ui://reference/counter-view',
    mimeType: 'text/html;profile=mcp-app',
    meta: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
  });
  expect(app.html).toMatch(/^<!DOCTYPE html>/);
  expect(await readAppResource(client, 'ui://reference/counter-view')).toEqual(app);
  // A tool without a view, or a URI that is not one, is the caller's mistake.
  const echo = (await client.listTools()).find((tool) => tool.name === 'echo')!;
  await expect(readAppResource(client, echo)).rejects.toThrow(TypeError);
  await expect(readAppResource(client, 'ref://static/hello')).rejects.toThrow(/ui:\/\//);
});
