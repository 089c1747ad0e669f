/**
 * The adapter's own failures. Everything the connection or the server can fail with is the
 * client's error tree (`McpError` and its subclasses), passed through untouched.
 */
import type { CallToolResult } from '@toolwire/client';

/** Arguments that do not fit the tool's input schema; the call was not sent. */
export class ToolArgumentsError extends Error {
  override readonly name = 'ToolArgumentsError';
  readonly code = 'INVALID_ARGUMENTS';
  /** The server's name of the tool. */
  readonly tool: string;
  /** One line per problem, `/path message`. */
  readonly problems: readonly string[];

  constructor(tool: string, problems: readonly string[]) {
    super(`arguments do not match the input schema of "${tool}": ${problems.join('; ')}`);
    this.tool = tool;
    this.problems = problems;
  }
}

/** The tool answered `isError: true`, thrown because `toolErrors` is `'throw'`. */
export class ToolResultError extends Error {
  override readonly name = 'ToolResultError';
  readonly code = 'TOOL_ERROR';
  readonly tool: string;
  /** The server's result, content and all. */
  readonly result: CallToolResult;

  constructor(tool: string, result: CallToolResult, message: string) {
    super(`tool "${tool}" failed: ${message}`);
    this.tool = tool;
    this.result = result;
  }
}
