/**
 * MCP Apps (SEP-1865, the `io.modelcontextprotocol/ui` extension): a tool whose results a view
 * renders, a tool only that view may call, and the view itself, a `ui://` HTML resource. Offered
 * only to clients that declared the extension with the MCP App MIME type, as the extension asks
 * of servers; the view stays out of `resources/list` (the extension allows it) but is readable.
 */
import { text } from './content.ts';
import type { RequestContext } from './context.ts';
import { isObject, type JsonObject } from './jsonrpc.ts';
import type { ToolDefinition } from './tools.ts';

export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The view that shows the counter the `bump` tool raises. */
export const COUNTER_VIEW_URI = 'ui://reference/counter-view';

/** Whether the caller declared the extension with a MIME type this server's views use. */
export function declaresApps(ctx: RequestContext): boolean {
  const declared = ctx.modern?.clientCapabilities ?? ctx.session?.clientCapabilities ?? {};
  const extensions = declared['extensions'];
  const ui = isObject(extensions) ? extensions[APPS_EXTENSION] : undefined;
  const mimeTypes = isObject(ui) ? ui['mimeTypes'] : undefined;
  return Array.isArray(mimeTypes) && mimeTypes.includes(APP_MIME_TYPE);
}

function counterResult(ctx: RequestContext): JsonObject {
  const structured = { counter: ctx.fixtures.counter };
  // The text says it all for a host that shows no view; the view reads structuredContent.
  return { content: [text(`the counter is ${structured.counter}`)], structuredContent: structured };
}

const COUNTER_SCHEMA: JsonObject = {
  type: 'object',
  properties: { counter: { type: 'integer' } },
  required: ['counter'],
};

export const APP_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'counter_view',
    description:
      'Shows the counter that bump raises, in an interactive view where the host has one.',
    inputSchema: { type: 'object', additionalProperties: false },
    outputSchema: COUNTER_SCHEMA,
    annotations: { readOnlyHint: true, idempotentHint: true },
    apps: true,
    meta: { ui: { resourceUri: COUNTER_VIEW_URI, visibility: ['model', 'app'] } },
    run: (_args, ctx) => counterResult(ctx),
  },
  {
    name: 'counter_view_refresh',
    description: "The counter view's refresh button. Called by the view, never by a model.",
    inputSchema: { type: 'object', additionalProperties: false },
    outputSchema: COUNTER_SCHEMA,
    annotations: { readOnlyHint: true, idempotentHint: true },
    apps: true,
    meta: { ui: { resourceUri: COUNTER_VIEW_URI, visibility: ['app'] } },
    run: (_args, ctx) => counterResult(ctx),
  },
];

/** A small, valid HTML5 view: shows the tool result the host pushes, refreshes through the host. */
const COUNTER_VIEW_HTML = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Counter</title></head>
<body>
<p>Counter: <output id="counter">?</output></p>
<button id="refresh" type="button">Refresh</button>
<script>
let next = 1;
const show = (result) => {
  document.getElementById('counter').textContent = String(result?.structuredContent?.counter ?? '?');
};
window.addEventListener('message', (event) => {
  const message = event.data;
  if (message?.method === 'ui/notifications/tool-result') show(message.params);
  else if (message?.result?.structuredContent) show(message.result);
});
document.getElementById('refresh').addEventListener('click', () => {
  window.parent.postMessage(
    { jsonrpc: '2.0', id: next++, method: 'tools/call', params: { name: 'counter_view_refresh', arguments: {} } },
    '*',
  );
});
</script>
</body>
</html>
`;

/** The contents of a view, or undefined for a URI that names none. */
export function viewContents(uri: string): JsonObject | undefined {
  if (uri !== COUNTER_VIEW_URI) return undefined;
  return {
    uri,
    mimeType: APP_MIME_TYPE,
    text: COUNTER_VIEW_HTML,
    // No external origins at all: the host's most restrictive sandbox fits.
    _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
  };
}
