/**
 * @toolwire/langchain: the tools of any server toolwire speaks to, as LangChain StructuredTools.
 * Every export here is API; nothing else is.
 */
export type { McpArtifact, ModelBlock, ModelContent } from './content.ts';
export { ToolException } from './errors.ts';
export type { McpToolCall, McpToolsOptions } from './options.ts';
export { McpStructuredTool, type McpToolOutput } from './tool.ts';
export { McpToolkit } from './toolkit.ts';
export { mcpStructuredTools } from './tools.ts';
