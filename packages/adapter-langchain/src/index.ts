/**
 * @toolwire/langchain: the tools of any server toolwire speaks to, as LangChain StructuredTools.
 * Every export here is API; nothing else is.
 */
export {
  readAppResource,
  serverInstructions,
  type ToolDrift,
  ToolPins,
  type ToolPinsOptions,
  type ToolSource,
  type ToolTokens,
  type ToolTokensOptions,
} from '@toolwire/client';
export type { McpArtifact, ModelBlock, ModelContent } from './content.ts';
export { ToolException } from './errors.ts';
export {
  type InterruptDecision,
  type McpInterruptOnConfig,
  type McpInterruptOnOptions,
  mcpInterruptOn,
} from './interrupt-on.ts';
export type { McpToolCall, McpToolsOptions } from './options.ts';
export { type McpSkills, mcpSkills } from './skills.ts';
export { mcpToolTokens } from './tokens.ts';
export { type McpProgressEvent, McpStructuredTool, type McpToolOutput } from './tool.ts';
export { McpToolkit } from './toolkit.ts';
export { mcpStructuredTools } from './tools.ts';
