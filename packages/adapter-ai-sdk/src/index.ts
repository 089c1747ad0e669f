/**
 * @toolwire/ai-sdk: MCP tools as an AI SDK tool set. Every export here is API; nothing else is.
 */

export {
  readAppResource,
  serverInstructions,
  type ToolDrift,
  type ToolNameMap,
  ToolPins,
  type ToolPinsOptions,
  type ToolSource,
  type ToolTokens,
  type ToolTokensOptions,
} from '@toolwire/client';
export {
  type McpToolApproval,
  type McpToolApprovalOptions,
  mcpToolApproval,
} from './approval.ts';
export { ToolArgumentsError, ToolResultError } from './errors.ts';
export { type ToolResultOutput, toModelOutput } from './model-output.ts';
export type {
  InputExample,
  McpToolCall,
  McpToolResult,
  McpTools,
  McpToolsOptions,
  ToolProviderOptions,
  ToolSchema,
  ToolSchemas,
  TypedTools,
} from './options.ts';
export { type McpSkills, mcpSkills } from './skills.ts';
export { mcpToolTokens } from './tokens.ts';
export { TOOL_CALL_ID_META } from './tool.ts';
export { type McpToolSet, mcpToolSet, mcpTools } from './tool-set.ts';
