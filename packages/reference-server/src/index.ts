/**
 * `@toolwire/reference-server`: a deterministic MCP server (Streamable HTTP, protocol revisions
 * 2025-11-25, 2025-06-18 and 2025-03-26) with fixture tools, resources and prompts and
 * switchable faults, written from the MCP specification for tests and demos.
 */
export { startReferenceServer } from './server.ts';
export type {
  CancelledRequest,
  FailReply,
  Faults,
  ReceivedRequest,
  ReferenceServer,
  ReferenceServerOptions,
} from './types.ts';
