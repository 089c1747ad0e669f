/**
 * Approval the way AI SDK 7 configures it: `generateText({ tools, toolApproval: mcpToolApproval(tools) })`.
 * The policy reads each MCP tool's annotations; tools the adapter did not build are left to their
 * own settings. Annotations come from the server: hints, not guarantees.
 */
import { type Tool as McpTool, setOwn } from '@toolwire/client';
import type { ToolApprovalStatus, ToolSet } from 'ai';
import { mayDestroy } from './options.ts';
import { definitionOf } from './tool.ts';

export interface McpToolApprovalOptions {
  /**
   * Which MCP tools wait for the user: those the server does not mark read-only or
   * non-destructive (`'destructive'`, the spec's defaults for `readOnlyHint` and
   * `destructiveHint`), every one (`'always'`), or as a function decides for each call.
   * @default 'destructive'
   */
  when?: 'destructive' | 'always' | ((tool: McpTool, input: unknown) => boolean);
  /** Shown to the approver with the request. */
  reason?: string | ((tool: McpTool) => string | undefined);
}

/** Per tool name: a status, or a function of the call's input that gives one. */
export type McpToolApproval = Record<
  string,
  ToolApprovalStatus | ((input: unknown) => ToolApprovalStatus)
>;

/** A `toolApproval` configuration for the MCP tools of `tools`, from their annotations. */
export function mcpToolApproval(
  tools: ToolSet,
  options: McpToolApprovalOptions = {},
): McpToolApproval {
  const { when = 'destructive', reason } = options;
  if (when !== 'destructive' && when !== 'always' && typeof when !== 'function') {
    throw new TypeError("expected `when` to be 'destructive', 'always' or a function");
  }
  const approval: McpToolApproval = {};
  for (const [name, tool] of Object.entries(tools)) {
    const definition = definitionOf(tool);
    if (!definition) continue;
    const said = typeof reason === 'function' ? reason(definition) : reason;
    const ask: ToolApprovalStatus =
      said === undefined ? 'user-approval' : { type: 'user-approval', reason: said };
    if (typeof when === 'function') {
      setOwn(approval, name, (input: unknown) =>
        when(definition, input) ? ask : 'not-applicable',
      );
    } else {
      setOwn(approval, name, when === 'always' || mayDestroy(definition) ? ask : 'not-applicable');
    }
  }
  return approval;
}
