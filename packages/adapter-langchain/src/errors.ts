/**
 * The failure of a tool itself (a result with `isError: true`), thrown so that LangChain's error
 * handling sees it: a ToolNode or `createAgent` hands its message back to the model. Protocol and
 * transport failures stay the client's typed errors (`McpError` and its subclasses).
 */
import type { CallToolResult } from '@toolwire/client';

export class ToolException extends Error {
  override readonly name = 'ToolException';
  /** The server the tool belongs to, as the adapter names it (`serverName`). */
  readonly server: string;
  /** The tool's name on the server (not the prefixed LangChain name). */
  readonly tool: string;
  /** The whole result the server sent, `isError` and all. */
  readonly result: CallToolResult;

  constructor(server: string, tool: string, result: CallToolResult, options?: ErrorOptions) {
    super(`tool "${tool}" on server "${server}" failed: ${errorText(result)}`, options);
    this.server = server;
    this.tool = tool;
    this.result = result;
  }
}

/** The text a failed result carries, for the message; a placeholder when it has none. */
export function errorText(result: CallToolResult): string {
  const text = result.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n');
  return text || '(the server gave no text)';
}
