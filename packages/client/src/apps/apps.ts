/**
 * MCP Apps (SEP-1865, the `io.modelcontextprotocol/ui` extension): a tool names a `ui://`
 * resource that renders its results, and says who may call it. The client reads that metadata
 * into `tool.ui`, keeps tools without `"model"` in their visibility away from models, and reads a
 * view's HTML for a host to render. Rendering, sandboxing and the view's postMessage channel are
 * the host's.
 */

import { usageError } from '../core/call-boundary.ts';
import { MalformedMessageError } from '../core/errors.ts';
import { isObject, type JsonObject } from '../core/jsonrpc.ts';
import type { ReadResourceResult, Tool, ToolUi } from '../core/types.ts';

/** The extension's identifier, declared in `capabilities.extensions`. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an MCP App view (HTML). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

const EVERYONE: ToolUi['visibility'] = Object.freeze(['model', 'app'] as const);

/** The tools with `ui` read from their `_meta`; the same array when no tool has any. */
export function withUi(tools: Tool[]): Tool[] {
  let changed = false;
  const read = tools.map((tool) => {
    const ui = toolUi(tool);
    if (!ui) return tool;
    changed = true;
    return { ...tool, ui };
  });
  return changed ? read : tools;
}

/**
 * `_meta.ui` as a typed `ToolUi` (and the extension's deprecated flat `_meta["ui/resourceUri"]`).
 * What does not fit is dropped: a `resourceUri` outside `ui://`, unknown visibility values.
 */
function toolUi(tool: Tool): ToolUi | undefined {
  const meta = tool._meta;
  if (!meta) return undefined;
  const ui = isObject(meta['ui']) ? meta['ui'] : undefined;
  const flat = meta['ui/resourceUri'];
  if (!ui && flat === undefined) return undefined;
  const resourceUri = ui?.['resourceUri'] ?? flat;
  const read: ToolUi = { visibility: visibilityOf(ui?.['visibility']) };
  if (typeof resourceUri === 'string' && resourceUri.startsWith('ui://')) {
    read.resourceUri = resourceUri;
  }
  return read;
}

/**
 * A list keeps what it names; a lone string is read as a list of one. A server that says
 * `"app"` means app-only, and treating it as "not said" would hand the tool to the model.
 */
function visibilityOf(value: unknown): ToolUi['visibility'] {
  if (value === undefined) return EVERYONE;
  const listed = Array.isArray(value) ? value : [value];
  return listed.filter((who): who is 'model' | 'app' => who === 'model' || who === 'app');
}

/** Whether a model may be shown the tool: the extension's MUST for hosts. */
export function visibleToModel(tool: Tool): boolean {
  return !tool.ui || tool.ui.visibility.includes('model');
}

/** Whether the server's views may call the tool (a host checks this before forwarding a call). */
export function visibleToApp(tool: Tool): boolean {
  return !tool.ui || tool.ui.visibility.includes('app');
}

/** A view as a host renders it. */
export interface AppResource {
  uri: string;
  mimeType: typeof APP_MIME_TYPE;
  /** The HTML document (decoded when the server sent it as a blob). */
  html: string;
  /**
   * The content's `_meta.ui`: `csp` (the origins it may reach), `permissions`, `domain`,
   * `prefersBorder`. The host builds its sandbox from these; absent means the most restrictive.
   */
  meta: JsonObject | undefined;
}

/** What `readAppResource` reads from: a client, or every server of `createMcpClients`. */
export interface ResourceReader {
  readResource(
    uri: string,
    options?: { signal?: AbortSignal; timeoutMs?: number; tool?: string },
  ): Promise<ReadResourceResult>;
}

/**
 * Reads a tool's view (or a `ui://` URI) for a host to render: the HTML and the sandbox
 * metadata. Given a tool, or a URI with the `tool` it came from (a tool result's
 * `toolMetadata`, say), the view comes from that tool's own server.
 */
export async function readAppResource(
  source: ResourceReader,
  target: Tool | string,
  options: { signal?: AbortSignal; timeoutMs?: number; tool?: string } = {},
): Promise<AppResource> {
  const uri = typeof target === 'string' ? target : target.ui?.resourceUri;
  if (uri === undefined) {
    throw usageError(
      `the tool "${(target as Tool).name}" has no MCP App view (_meta.ui.resourceUri)`,
    );
  }
  if (!uri.startsWith('ui://')) throw usageError(`expected a ui:// URI, got "${uri}"`);
  const tool = typeof target === 'string' ? options.tool : target.name;
  const read = await source.readResource(uri, tool === undefined ? options : { ...options, tool });
  const where = { method: 'resources/read', tool };
  const content = read.contents.find((item) => item.uri === uri);
  if (!content) throw new MalformedMessageError(`no contents for ${uri}`, where);
  if (!isAppMimeType(content.mimeType)) {
    throw new MalformedMessageError(
      `${uri} is ${content.mimeType ?? 'untyped'}, not ${APP_MIME_TYPE}`,
      where,
    );
  }
  const html =
    'text' in content ? content.text : Buffer.from(content.blob, 'base64').toString('utf8');
  const ui = content._meta?.['ui'];
  return { uri, mimeType: APP_MIME_TYPE, html, meta: isObject(ui) ? ui : undefined };
}

/** `text/html;profile=mcp-app`, however the server spaced or cased it. */
function isAppMimeType(mimeType: string | undefined): boolean {
  return mimeType?.replace(/\s+/g, '').toLowerCase() === APP_MIME_TYPE;
}
