/**
 * Human approval the way LangChain 1.x does it: `humanInTheLoopMiddleware({ interruptOn })`, with
 * the map built from each MCP tool's annotations. The agent pauses before a tool that may destroy
 * and resumes with the reviewer's decision. Annotations come from the server: hints, not
 * guarantees.
 */
import { setOwn, type Tool } from '@toolwire/client';
import { McpStructuredTool } from './tool.ts';

export type InterruptDecision = 'approve' | 'edit' | 'reject';

/** One entry of `interruptOn` (LangChain's `InterruptOnConfig`). */
export interface McpInterruptOnConfig {
  allowedDecisions: InterruptDecision[];
  description?: string;
  /** The tool's input schema, so a reviewer who edits the call knows what fits. */
  argsSchema?: Record<string, unknown>;
}

export interface McpInterruptOnOptions {
  /**
   * Which MCP tools pause the agent: those the server does not mark read-only or
   * non-destructive (`'destructive'`, the spec's defaults for `readOnlyHint` and
   * `destructiveHint`), every one (`'always'`), or as a function decides.
   * @default 'destructive'
   */
  when?: 'destructive' | 'always' | ((tool: Tool) => boolean);
  /** What the reviewer may decide. @default ['approve', 'edit', 'reject'] */
  allowedDecisions?: readonly InterruptDecision[];
  /** Shown to the reviewer with the request. */
  description?: string | ((tool: Tool) => string | undefined);
}

/**
 * An `interruptOn` map for `humanInTheLoopMiddleware`, by each MCP tool's LangChain name: a
 * configuration for the tools that pause, `false` (auto-approved) for the others. Tools that are
 * not the adapter's are left out, to keep their own entries.
 */
export function mcpInterruptOn(
  tools: readonly unknown[],
  options: McpInterruptOnOptions = {},
): Record<string, McpInterruptOnConfig | false> {
  const {
    when = 'destructive',
    allowedDecisions = ['approve', 'edit', 'reject'],
    description,
  } = options;
  if (when !== 'destructive' && when !== 'always' && typeof when !== 'function') {
    throw new TypeError("when must be 'destructive', 'always' or a function");
  }
  const interruptOn: Record<string, McpInterruptOnConfig | false> = {};
  for (const tool of tools) {
    if (!(tool instanceof McpStructuredTool)) continue;
    const { definition } = tool;
    const pauses =
      when === 'always' || (typeof when === 'function' ? when(definition) : mayDestroy(definition));
    if (!pauses) {
      setOwn(interruptOn, tool.name, false);
      continue;
    }
    const said = typeof description === 'function' ? description(definition) : description;
    setOwn(interruptOn, tool.name, {
      allowedDecisions: [...allowedDecisions],
      ...(said === undefined ? {} : { description: said }),
      ...(allowedDecisions.includes('edit')
        ? { argsSchema: tool.schema as Record<string, unknown> }
        : {}),
    });
  }
  return interruptOn;
}

/** The spec's defaults: a tool is not read-only, and is destructive, unless it says otherwise. */
function mayDestroy(tool: Tool): boolean {
  const hints = tool.annotations ?? {};
  return hints.readOnlyHint !== true && hints.destructiveHint !== false;
}
