/**
 * MCP Apps as SEP-1865 (`io.modelcontextprotocol/ui`) describes it: the server advertises the
 * extension, offers its UI tools to a client that declared the extension with the MCP App MIME
 * type (in `initialize`, or in a 2026-07-28 request's `_meta`), links them to a `ui://` view
 * through `_meta.ui`, and serves that view with `resources/read`.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from './index.ts';
import { TestClient } from './testing/client.ts';
import { modern } from './testing/modern.ts';

const UI = 'io.modelcontextprotocol/ui';
const DECLARED = { extensions: { [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } } };

async function allTools(client: TestClient): Promise<Array<Record<string, unknown>>> {
  const tools: Array<Record<string, unknown>> = [];
  let cursor: unknown;
  do {
    const page = await client.result('tools/list', cursor === undefined ? {} : { cursor });
    tools.push(...(page['tools'] as Array<Record<string, unknown>>));
    cursor = page['nextCursor'];
  } while (cursor !== undefined);
  return tools;
}

describe('MCP Apps', () => {
  it('advertises the extension in initialize and in server/discover', async () => {
    await using server = await startReferenceServer();
    const legacy = await TestClient.connect(server.url);
    expect(legacy.initializeResult?.['capabilities']).toMatchObject({ extensions: { [UI]: {} } });
    const { response } = await modern(server.urls.modern, 1, 'server/discover');
    expect(response?.result?.['capabilities']).toMatchObject({ extensions: { [UI]: {} } });
  });

  it('a session that declared the extension gets the app tool and the app-only tool, linked to the view', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: DECLARED });
    const tools = await allTools(client);
    expect(tools.find((tool) => tool['name'] === 'counter_view')).toMatchObject({
      _meta: { ui: { resourceUri: 'ui://reference/counter-view', visibility: ['model', 'app'] } },
    });
    expect(tools.find((tool) => tool['name'] === 'counter_view_refresh')).toMatchObject({
      _meta: { ui: { resourceUri: 'ui://reference/counter-view', visibility: ['app'] } },
    });
  });

  it.each([
    ['no extensions', {}],
    ['another MIME type only', { extensions: { [UI]: { mimeTypes: ['text/uri-list'] } } }],
  ])('a session that declared %s gets no UI tools, and cannot call them', async (_label, caps) => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: caps });
    const names = (await allTools(client)).map((tool) => tool['name']);
    expect(names).toContain('echo');
    expect(names).not.toContain('counter_view');
    expect(names).not.toContain('counter_view_refresh');
    const { response } = await client.request('tools/call', { name: 'counter_view' });
    expect(response?.error?.code).toBe(-32602);
  });

  it('a 2026-07-28 request declares it in its own _meta, request by request', async () => {
    await using server = await startReferenceServer({ pageSize: 1000 });
    const names = async (capabilities: unknown) => {
      const meta = { 'io.modelcontextprotocol/clientCapabilities': capabilities };
      const { response } = await modern(server.urls.modern, 1, 'tools/list', {}, { meta });
      const tools = (response?.result?.['tools'] ?? []) as Array<{ name: string }>;
      return tools.map((tool) => tool.name);
    };
    expect(await names(DECLARED)).toEqual(
      expect.arrayContaining(['counter_view', 'counter_view_refresh']),
    );
    expect(await names({})).not.toContain('counter_view');
  });

  it('the app tool answers with text for any host and structured content for the view', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url, { capabilities: DECLARED });
    await client.callTool('bump');
    const result = await client.callTool('counter_view');
    expect(result).toMatchObject({
      content: [{ type: 'text', text: 'the counter is 1' }],
      structuredContent: { counter: 1 },
    });
    expect(await client.callTool('counter_view_refresh')).toMatchObject({
      structuredContent: { counter: 1 },
    });
  });

  it('resources/read serves the view as HTML with the MCP App MIME type and its sandbox metadata', async () => {
    await using server = await startReferenceServer();
    const client = await TestClient.connect(server.url);
    const read = await client.result('resources/read', { uri: 'ui://reference/counter-view' });
    const [content] = read['contents'] as Array<Record<string, unknown>>;
    expect(content).toMatchObject({
      uri: 'ui://reference/counter-view',
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
    });
    expect(String(content?.['text'])).toMatch(/^<!DOCTYPE html>/);
    // The view is discovered through tools, and stays out of resources/list.
    const listed = await TestClient.connect(server.url, { capabilities: DECLARED });
    const pages: unknown[] = [];
    let cursor: unknown;
    do {
      const page = await listed.result('resources/list', cursor === undefined ? {} : { cursor });
      pages.push(page);
      cursor = page['nextCursor'];
    } while (cursor !== undefined);
    expect(JSON.stringify(pages)).not.toContain('ui://');
  });
});
