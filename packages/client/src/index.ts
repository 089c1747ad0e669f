/**
 * @toolwire/client: the public face. Every export here is API, named and documented in the
 * README; nothing else is.
 */
// biome-ignore-all assist/source/organizeImports: grouped by what a user looks for, not by path

// One server, several servers, and what they are made with.
export {
  type CallToolOptions,
  createMcpClient,
  type ListOptions,
  type ListToolsOptions,
  McpClient,
  type RequestOptions,
} from './client.ts';
export {
  createMcpClients,
  McpClients,
  type McpClientsEvents,
  type McpClientsOptions,
  type ServerStatus,
  type ToolOrigin,
} from './multi/clients.ts';
export {
  type ServerOfTool,
  serverInstructions,
  serverOfTool,
  type ToolSource,
} from './multi/source.ts';
export type {
  McpServerConfig,
  ServerTarget,
  ServerTargets,
  StdioServer,
  UrlServer,
} from './multi/targets.ts';
export type { ClientInfo, ClientOptions } from './options.ts';
export type { ClientEvents } from './events.ts';
export type { ToolStreamEvent } from './tool-stream.ts';
export {
  DIALECTS,
  type DialectChoice,
  LEGACY_VERSIONS,
  MODERN_VERSIONS,
  type ProtocolChoice,
} from './negotiate/versions.ts';

// What servers send and calls report.
export type {
  Annotations,
  AudioContent,
  CallHandle,
  CallStatus,
  CallToolResult,
  CompleteResult,
  CompletionReference,
  ContentBlock,
  EmbeddedResource,
  GetPromptResult,
  Icon,
  ImageContent,
  JsonSchema,
  LoggingLevel,
  LogMessage,
  Progress,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceLink,
  ResourceTemplate,
  RetryPolicy,
  TextContent,
  Tool,
  ToolAnnotations,
  ToolUi,
} from './types.ts';
export type { JsonObject } from './jsonrpc.ts';

// Errors: one tree, each with a code and a family.
export {
  AbortedError,
  AuthorizationError,
  type AuthorizationFailure,
  ClientClosedError,
  ContentTypeError,
  type ErrorContext,
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
  type McpErrorCode,
  type McpErrorFamily,
  MetadataChangedError,
  MissingCapabilityError,
  MoreResourceRequiredError,
  NotSupportedError,
  OutputValidationError,
  type ProcessExit,
  ResourceNotFoundError,
  ResponseTooLargeError,
  ServerExitedError,
  SessionExpiredError,
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
} from './errors.ts';

// The server's questions, answered by the application's handlers.
export type {
  ElicitationHandler,
  ElicitationMode,
  ElicitationRequest,
  ElicitationResult,
  FormElicitation,
  FormField,
  FormValue,
  HandlerContext,
  RequestedSchema,
  Root,
  RootsOption,
  SamplingContent,
  SamplingHandler,
  SamplingMessage,
  SamplingRequest,
  SamplingResult,
  ToolResultContent,
  ToolUseContent,
  UrlElicitation,
} from './handlers/types.ts';

// Long-running work and the stores a client keeps (shared by several clients when given one).
export {
  checkHandle,
  type HandleStore,
  type MemoryHandleStore,
  memoryHandleStore,
} from './handles.ts';
export { memoryVerdictStore, type Verdict, type VerdictStore } from './negotiate/verdicts.ts';

// Authorization.
export type { HeadersSource } from './auth/gate.ts';
export type {
  AssertionSource,
  AuthOption,
  AuthorizeCallback,
  AuthProvider,
  AuthRefusal,
  AuthRequest,
  BearerTokenSource,
  MachineGrant,
  OAuthOptions,
  RegisteredClient,
} from './auth/types.ts';
export {
  type AuthStore,
  authKeys,
  type ClientRecord,
  type IssuerRecord,
  memoryAuthStore,
  type ResourceRecord,
  type TokenRecord,
} from './auth/store.ts';
export {
  type LoopbackAuthorization,
  type LoopbackOptions,
  loopbackAuthorization,
} from './auth/loopback.ts';

// Webtools, MCP Apps and tool-definition pinning.
export type { WebtoolAction, WebtoolMetadata, WebtoolsOptions } from './dialects/webtools/index.ts';
export {
  type AppResource,
  type ResourceReader,
  readAppResource,
  visibleToApp,
  visibleToModel,
} from './apps.ts';
export {
  type PinnedDefinition,
  type ToolDrift,
  ToolPins,
  type ToolPinsOptions,
  toolFingerprint,
} from './pins.ts';
