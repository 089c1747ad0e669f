/**
 * @toolwire/client: the public face. Every export here is API; nothing else is.
 */

export {
  APP_MIME_TYPE,
  APPS_EXTENSION,
  type AppResource,
  type ResourceReader,
  readAppResource,
  visibleToApp,
  visibleToModel,
} from './apps.ts';
export type { HeadersSource } from './auth/gate.ts';
export {
  type LoopbackAuthorization,
  type LoopbackOptions,
  loopbackAuthorization,
} from './auth/loopback.ts';
export {
  type AuthStore,
  authKeys,
  type ClientRecord,
  type IssuerRecord,
  memoryAuthStore,
  type ResourceRecord,
  type TokenRecord,
} from './auth/store.ts';
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
  type CallToolOptions,
  createMcpClient,
  type ListOptions,
  type ListToolsOptions,
  McpClient,
  type RequestOptions,
} from './client.ts';
export type { Progress } from './dialects/dialect.ts';
export type {
  WebtoolAction,
  WebtoolMetadata,
  WebtoolsOptions,
} from './dialects/webtools/index.ts';
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
export type { ClientEvents } from './events.ts';
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
export {
  type CallHandle,
  checkHandle,
  type HandleStore,
  type MemoryHandleStore,
  memoryHandleStore,
} from './handles.ts';
export type { JsonObject } from './jsonrpc.ts';
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
export { memoryVerdictStore, type Verdict, type VerdictStore } from './negotiate/verdicts.ts';
export {
  DIALECTS,
  type DialectChoice,
  LEGACY_VERSIONS,
  MODERN_VERSIONS,
  type ProtocolChoice,
} from './negotiate/versions.ts';
export { type ClientInfo, type ClientOptions, DEFAULTS } from './options.ts';
export {
  type PinnedDefinition,
  type ToolDrift,
  ToolPins,
  type ToolPinsOptions,
  toolFingerprint,
} from './pins.ts';
export type { CallStatus } from './redeem.ts';
export type { ToolStreamEvent } from './tool-stream.ts';
export type { RetryPolicy } from './transport/retry.ts';
export type * from './types.ts';
