/**
 * Every type of the public face, each named here: what `index.ts` exports as types. A type not
 * listed here is internal, however many modules use it.
 */
// biome-ignore-all assist/source/organizeImports: grouped by what a user looks for, not by path

// One server, several servers, and the options they are made with.
export type {
  CallToolOptions,
  ListOptions,
  ListToolsOptions,
  RequestOptions,
} from './client/client.ts';
export type { ClientInfo, ClientOptions } from './client/options.ts';
export type { KeyShape, OptionKeys, OptionShape } from './core/option-keys.ts';
export type { ClientEvents } from './client/events.ts';
export type { ToolStreamEvent } from './client/tool-stream.ts';
export type {
  McpClientsEvents,
  McpClientsOptions,
  ServerStatus,
  ToolOrigin,
} from './multi/clients.ts';
export type { ServerOfTool, ToolSource } from './multi/source.ts';
export type {
  McpServerConfig,
  ServerTarget,
  ServerTargets,
  StdioServer,
  UrlServer,
} from './multi/targets.ts';
export type { DialectChoice } from './dialects/registered.ts';
export type { ProtocolChoice } from './dialects/versions.ts';

// Finding servers: cards, catalogs, the MCP Registry, and what they describe.
export type {
  ArgumentSpec,
  CardDifference,
  DiscoveredServer,
  InputSpec,
  NamedInput,
  PackageSpec,
  RemoteSpec,
  ServerCard,
} from './discovery/types.ts';
export type { CachedDocument, DocumentCache } from './discovery/cache.ts';
export type { FetchOptions } from './discovery/fetch-document.ts';
export type { DiscoverOptions, Discovery } from './discovery/discover.ts';
export type { SkippedEntry } from './discovery/catalog.ts';
export type { InputRequest, InputSource } from './discovery/inputs.ts';
export type { CardConnection, CardSource, FromCardOptions } from './discovery/from.ts';
export type { PackageCommand, PackageOptions } from './discovery/packages.ts';
export type { BundleOptions, VerifiedBundle } from './discovery/bundle.ts';
export type {
  RegistryEntry,
  RegistryPage,
  SearchOptions,
  ServerRegistry,
  ServerRegistryOptions,
} from './discovery/server-registry.ts';

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
} from './core/types.ts';
export type { JsonObject } from './core/jsonrpc.ts';

// What an error carries (the classes are values, in index.ts).
export type {
  AuthorizationFailure,
  ErrorContext,
  McpErrorCode,
  McpErrorFamily,
  SkillCheck,
  ProcessExit,
} from './core/errors.ts';

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

// The stores a client keeps: deferred calls' handles and negotiation verdicts.
export type { HandleStore, MemoryHandleStore } from './call/handles.ts';
export type {
  CallPolicy,
  CallRate,
  PolicyNote,
  PolicyStore,
  ReuseOptions,
  TakenStart,
} from './policy/types.ts';
export type { Verdict, VerdictStore } from './dialects/verdicts.ts';

// Authorization.
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
export type { HeadersSource } from './auth/gate.ts';
export type {
  AuthStore,
  ClientRecord,
  IssuerRecord,
  ResourceRecord,
  TokenRecord,
} from './auth/store.ts';
export type { LoopbackAuthorization, LoopbackOptions } from './auth/loopback.ts';

// Webtools, MCP Apps, tool-definition pinning and the adapters' tool names.
export type { WebtoolAction, WebtoolMetadata, WebtoolsOptions } from './dialects/webtools/index.ts';
export type { AppResource, ResourceReader } from './apps/apps.ts';
// Skills over MCP.
export type { Skill, SkillResource } from './skills/entry.ts';
export type {
  LoadedSkill,
  LoadSkillOptions,
  SkillDirectoryEntry,
  SkillFile,
  SkillRequestOptions,
} from './skills/skills.ts';
export type {
  SkillReading,
  SkillResourceReading,
  SkillShelfOptions,
  SkillSource,
} from './adapters/skills.ts';
export type { PinnedDefinition, ToolDrift, ToolPinsOptions } from './adapters/pins.ts';
export type { ToolNameMap } from './adapters/names.ts';
export type { TokenCounter, TokenizerName } from './adapters/tokenizers.ts';
export type { ModelToolDefinition, ToolTokens, ToolTokensOptions } from './adapters/tokens.ts';
