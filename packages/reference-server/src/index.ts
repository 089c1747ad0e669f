/**
 * `@toolwire/reference-server`: a deterministic MCP server (Streamable HTTP at protocol revisions
 * 2025-11-25, 2025-06-18 and 2025-03-26, stateless 2026-07-28, and the 2024-11-05 HTTP+SSE
 * transport) with fixture tools, resources and prompts and switchable faults, written from the
 * MCP specification for tests and demos.
 */
export { startReferenceServer } from './server.ts';
export type { HostileSkill } from './skills.ts';
export type {
  CancelledRequest,
  FailReply,
  Faults,
  LiteRedeem,
  ProtectionOptions,
  ReceivedRequest,
  ReferenceServer,
  ReferenceServerOptions,
  TaskRecord,
  TokenInfo,
} from './types.ts';
