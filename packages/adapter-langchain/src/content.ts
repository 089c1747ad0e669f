/**
 * A tool result split the way LangChain's `content_and_artifact` wants it: what the model reads,
 * as LangChain's v1 standard content blocks (text, image, audio; an embedded resource as
 * `text-plain`, media or `file`; a link the provider can fetch as a `file` by URL), and what the
 * application keeps (structured content, the embedded resources, the view of an MCP Apps tool,
 * and the raw result) as the ToolMessage's artifact.
 */
import type { CallToolResult, EmbeddedResource, ResourceLink, ToolUi } from '@toolwire/client';

/** A LangChain v1 standard content block (`@langchain/core` 1.x). */
export type ModelBlock =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio' | 'video' | 'file'; data: string; mimeType: string }
  | { type: 'file'; url: string; mimeType?: string; metadata?: Record<string, string> }
  | { type: 'text-plain'; text: string; mimeType: string; title?: string };

/** What the model reads: a plain string when the result is one text block, blocks otherwise. */
export type ModelContent = string | ModelBlock[];

/** The ToolMessage's `artifact`: everything the model does not need to read, kept whole. */
export interface McpArtifact {
  /** The server the tool belongs to. */
  server: string;
  /** The tool's name on the server. */
  tool: string;
  /** The result's `structuredContent`, already checked against the tool's `outputSchema`. */
  structuredContent?: unknown;
  /** Every embedded resource of the result, as the server sent it. */
  resources: EmbeddedResource[];
  /** An MCP Apps tool's view and visibility: a host renders the result with `readAppResource`. */
  ui?: ToolUi;
  /** The whole result. */
  result: CallToolResult;
}

export interface ContentOptions {
  server: string;
  tool: string;
  /** Embedded resources and links as blocks for the model, or in the artifact only. */
  resources?: 'blocks' | 'artifact';
  ui?: ToolUi | undefined;
}

export function toContentAndArtifact(
  result: CallToolResult,
  { server, tool, resources: where = 'blocks', ui }: ContentOptions,
): [ModelContent, McpArtifact] {
  const blocks: ModelBlock[] = [];
  const resources: EmbeddedResource[] = [];
  for (const block of result.content) {
    switch (block.type) {
      case 'text':
        blocks.push({ type: 'text', text: block.text });
        break;
      case 'image':
      case 'audio':
        blocks.push({ type: block.type, data: block.data, mimeType: block.mimeType });
        break;
      case 'resource_link':
        blocks.push(where === 'blocks' ? linkBlock(block) : linkLine(block));
        break;
      case 'resource':
        resources.push(block);
        if (where === 'blocks') blocks.push(resourceBlock(block));
        break;
    }
  }
  const hasStructured = result.structuredContent !== undefined;
  // Nothing for the model to read: say what there is rather than send an empty message.
  if (blocks.length === 0 && hasStructured) {
    blocks.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  if (blocks.length === 0 && resources.length > 0) {
    const uris = resources.map((block) => block.resource.uri).join(', ');
    blocks.push({ type: 'text', text: `embedded resources (in the artifact): ${uris}` });
  }
  const artifact: McpArtifact = { server, tool, resources, result };
  if (hasStructured) artifact.structuredContent = result.structuredContent;
  if (ui) artifact.ui = ui;
  const [only] = blocks;
  if (blocks.length === 1 && only?.type === 'text') return [only.text, artifact];
  return [blocks.length === 0 ? '' : blocks, artifact];
}

/** Text as `text-plain` (titled with its URI), media as itself, anything else as a `file`. */
function resourceBlock({ resource }: EmbeddedResource): ModelBlock {
  const mimeType =
    resource.mimeType ?? ('text' in resource ? 'text/plain' : 'application/octet-stream');
  if ('text' in resource) {
    return { type: 'text-plain', text: resource.text, mimeType, title: resource.uri };
  }
  const kind = /^(image|audio|video)\//.exec(mimeType)?.[1] as
    | 'image'
    | 'audio'
    | 'video'
    | undefined;
  return { type: kind ?? 'file', data: resource.blob, mimeType };
}

/**
 * A link a provider can fetch (http or https) is a `file` by URL; any other scheme (`file:`,
 * a server's own) names the resource in a line of text, since no provider could read it.
 */
function linkBlock(link: ResourceLink): ModelBlock {
  if (!/^https?:\/\//i.test(link.uri)) return linkLine(link);
  const metadata: Record<string, string> = { name: link.name };
  if (link.title !== undefined) metadata['title'] = link.title;
  if (link.description !== undefined) metadata['description'] = link.description;
  return {
    type: 'file',
    url: link.uri,
    ...(link.mimeType === undefined ? {} : { mimeType: link.mimeType }),
    metadata,
  };
}

function linkLine(link: ResourceLink): ModelBlock {
  const mime = link.mimeType ? `, ${link.mimeType}` : '';
  return { type: 'text', text: `resource link: ${link.name} <${link.uri}>${mime}` };
}
