/**
 * A tool result split the way LangChain's `content_and_artifact` wants it: what the model reads
 * (text, image and audio as LangChain's standard content blocks, a resource link as a line of
 * text naming it) and what the application keeps (structured content, embedded resources and the
 * raw result) as the ToolMessage's artifact.
 */
import type { CallToolResult, EmbeddedResource } from '@toolwire/client';

/** A LangChain standard content block (`@langchain/core` 1.x). */
export type ModelBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string };

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
  /** The whole result. */
  result: CallToolResult;
}

export function toContentAndArtifact(
  result: CallToolResult,
  server: string,
  tool: string,
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
      case 'resource_link': {
        const mime = block.mimeType ? `, ${block.mimeType}` : '';
        blocks.push({ type: 'text', text: `resource link: ${block.name} <${block.uri}>${mime}` });
        break;
      }
      case 'resource':
        resources.push(block);
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
  const [only] = blocks;
  if (blocks.length === 1 && only?.type === 'text') return [only.text, artifact];
  return [blocks.length === 0 ? '' : blocks, artifact];
}
