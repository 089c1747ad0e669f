/**
 * A tool result as the model should see it: every MCP content kind as a real model part (text,
 * or media for images, audio and binary resources), `structuredContent` added when the content
 * does not already carry it, and `isError` as an error output the model can react to.
 */
import {
  type CallToolResult,
  type ContentBlock,
  type EmbeddedResource,
  type ResourceContents,
  type ResourceLink,
  rendersStructuredContent,
} from '@toolwire/client';
import type { JSONValue, Tool } from 'ai';

/** What `toModelOutput` returns (the AI SDK does not export the type by name). */
export type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;
type ContentPart = Extract<
  Extract<ToolResultOutput, { type: 'content' }>['value'][number],
  { type: 'text' | 'file' }
>;

/**
 * The model's view of a tool result. Anything that is not a tool result (an output stored by an
 * older version and converted again by `convertToModelMessages`, say) goes as JSON.
 */
export function toModelOutput(result: unknown): ToolResultOutput {
  if (!isCallToolResult(result)) return { type: 'json', value: toJson(result) };
  const parts = result.content.map(toPart);
  const structured = structuredPart(result);
  if (structured) parts.push(structured);
  if (result.isError) return { type: 'error-text', value: describeError(result) };
  const [only] = parts;
  if (parts.length === 0) return { type: 'text', value: '' };
  if (parts.length === 1 && only?.type === 'text') return { type: 'text', value: only.text };
  return { type: 'content', value: parts };
}

/** The text of a failed result, for `error-text` and for thrown errors. */
export function describeError(result: CallToolResult): string {
  const lines = result.content.map((block) => {
    const part = toPart(block);
    return part.type === 'text' ? part.text : `[${block.type} ${part.mediaType}]`;
  });
  const structured = structuredPart(result);
  if (structured) lines.push(structured.text);
  return lines.join('\n') || 'the tool reported an error without saying why';
}

function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { content?: unknown }).content)
  );
}

function toJson(value: unknown): JSONValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JSONValue);
}

function toPart(block: ContentBlock): ContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
    case 'audio':
      return media(block.data, block.mimeType);
    case 'resource':
      return embedded(block);
    case 'resource_link':
      return { type: 'text', text: describeLink(block) };
    default:
      // A kind newer than this adapter: the model still learns what it was.
      return { type: 'text', text: JSON.stringify(block) };
  }
}

function media(base64: string, mediaType: string): Extract<ContentPart, { type: 'file' }> {
  return { type: 'file', mediaType, data: { type: 'data', data: base64 } };
}

/** Text stays text; a blob is media when its type says so, decoded text when it is textual. */
function embedded({ resource }: EmbeddedResource): ContentPart {
  const mediaType = resource.mimeType ?? '';
  if ('text' in resource)
    return { type: 'text', text: `[resource ${resource.uri}]\n${resource.text}` };
  if (isMedia(mediaType))
    return { ...media(resource.blob, mediaType), filename: fileName(resource) };
  if (isTextual(mediaType)) {
    return { type: 'text', text: `[resource ${resource.uri}]\n${decodeBase64(resource.blob)}` };
  }
  const size = Math.floor((resource.blob.length * 3) / 4);
  return {
    type: 'text',
    text: `[resource ${resource.uri}: ${mediaType || 'binary'}, about ${size} bytes, not shown]`,
  };
}

function describeLink(link: ResourceLink): string {
  const type = link.mimeType ? ` (${link.mimeType})` : '';
  const about = link.description ? `: ${link.description}` : '';
  return `[resource link] ${link.title ?? link.name} <${link.uri}>${type}${about}`;
}

/**
 * `structuredContent` as JSON text, unless a text block already renders it (the spec asks servers
 * to send it both ways, and the model needs it once): the client's rule, shared with LangChain.
 */
function structuredPart(result: CallToolResult): { type: 'text'; text: string } | undefined {
  if (result.structuredContent === undefined || rendersStructuredContent(result)) return undefined;
  return { type: 'text', text: JSON.stringify(result.structuredContent) };
}

function isMedia(mediaType: string): boolean {
  return /^(image|audio|video)\//.test(mediaType) || mediaType === 'application/pdf';
}

function isTextual(mediaType: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    /^application\/([\w.+-]*\+)?(json|xml|yaml|javascript|x-yaml|toml|sql)$/.test(mediaType)
  );
}

function fileName(resource: ResourceContents): string {
  return resource.uri.slice(resource.uri.lastIndexOf('/') + 1) || resource.uri;
}

function decodeBase64(base64: string): string {
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
