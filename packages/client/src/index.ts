/**
 * @toolwire/client: the public face. Every export here is API, named and documented in the
 * README; nothing else is. The values are named below; the types, in `public-types.ts`.
 */
// biome-ignore-all assist/source/organizeImports: grouped by what a user looks for, not by path

// One server, several servers, and the protocol versions they may speak.
export { createMcpClient, McpClient } from './client/client.ts';
export { createMcpClients, McpClients } from './multi/clients.ts';
export { serverInstructions, serverOfTool } from './multi/source.ts';
export { DIALECTS } from './dialects/registered.ts';
export { LEGACY_VERSIONS, MODERN_VERSIONS } from './dialects/versions.ts';

// Finding servers: Server Cards, AI Catalogs, the MCP Registry (each loaded on first use).
export {
  checkCard,
  connectionOf,
  createMcpClientFrom,
  discoverServers,
  fetchServerCard,
  packageCommand,
  readServerCard,
  serverRegistry,
  verifyBundle,
} from './discovery/entry.ts';

// Errors: one tree, each with a code and a family.
export {
  AbortedError,
  AuthorizationError,
  ClientClosedError,
  ContentTypeError,
  DiscoveryError,
  GrpcStatusError,
  HandleExpiredError,
  HandlerError,
  HeaderMismatchError,
  HttpStatusError,
  InputRequiredError,
  InputRoundsExceededError,
  InternalError,
  isMcpError,
  JsonRpcError,
  MalformedMessageError,
  McpError,
  MetadataChangedError,
  MissingCapabilityError,
  MissingInputError,
  MoreResourceRequiredError,
  NotSupportedError,
  OutputValidationError,
  ResourceNotFoundError,
  ResponseTooLargeError,
  RunnerMissingError,
  ServerExitedError,
  SessionExpiredError,
  SkillVerificationError,
  StoreUnavailableError,
  StreamTruncatedError,
  TaskCancelledError,
  TaskFailedError,
  TimeoutError,
  ToolNotFoundError,
  TooManyPagesError,
  TransportError,
  UnsupportedServerError,
  UnsupportedVersionError,
  UrlElicitationRequiredError,
  WebtoolError,
} from './core/errors.ts';

// The stores a client keeps (shared by several clients when given one).
export { checkHandle, memoryHandleStore } from './call/handles.ts';
export { memoryPolicyStore } from './policy/memory-store.ts';
export { memoryVerdictStore } from './dialects/verdicts.ts';

// Authorization.
export { authKeys, memoryAuthStore } from './auth/store.ts';
export { loopbackAuthorization } from './auth/loopback.ts';

// The check of options' keys, for packages built on the client (the adapters, the stores).
export { checkKeys } from './core/option-keys.ts';

// MCP Apps and tool-definition pinning.
export { readAppResource, visibleToApp, visibleToModel } from './apps/apps.ts';
export { ToolPins, toolFingerprint } from './adapters/pins.ts';

// What both adapters share, so one server's tools look and check the same in each.
export { providerToolNames } from './adapters/names.ts';
export { argumentProblems } from './adapters/arguments.ts';
export { getOwn, setOwn } from './adapters/own.ts';
export { nestsTooDeep, openSchema } from './adapters/schema-depth.ts';
export { SkillShelf } from './adapters/skills.ts';
// What tool definitions cost a model, and slimmer ones (tokenizers loaded only when counting).
export { slimDescription, slimSchema } from './adapters/slim.ts';
export { toolTokens } from './adapters/tokens.ts';
export { rendersStructuredContent } from './adapters/structured.ts';

// The types, each named in public-types.ts.
export type * from './public-types.ts';
