/**
 * The MCP data the client hands to applications: tools, results, content, resources, prompts,
 * and what a call reports while it runs (progress, status) or is tuned with (retries). Shapes
 * follow the 2025-11-25 schema; fields a server adds beyond it are kept, not dropped.
 */
import type { JsonObject } from './jsonrpc.ts';

export type JsonSchema = JsonObject;

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
}

/** Hints a server gives about a tool. Untrusted: a server can say anything. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  /** The client sends a call of this tool again after a failure only when this is true. */
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  execution?: JsonObject;
  /** The tool's kind, where the dialect says (MCP-lite's `@type`: `query`, `system`, ...). */
  category?: string;
  /** MCP Apps (`_meta.ui`): the tool's `ui://` view and who may call it. Absent without one. */
  ui?: ToolUi;
  _meta?: JsonObject;
}

/**
 * A tool's MCP Apps metadata, read from `_meta.ui` (the `io.modelcontextprotocol/ui`
 * extension). Server-supplied, like the rest of the tool.
 */
export interface ToolUi {
  /** The `ui://` resource that renders the tool's results, when it has one. */
  resourceUri?: string;
  /**
   * Who may call the tool: `model` (the agent) and `app` (the server's own views). The
   * extension's default, both, when the server says nothing. A tool without `model` is never
   * handed to a model (`listTools({ forModel: true })` leaves it out).
   */
  visibility: ReadonlyArray<'model' | 'app'>;
}

export interface Annotations {
  audience?: Array<'user' | 'assistant'>;
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface ImageContent {
  type: 'image';
  /** Base64. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface AudioContent {
  type: 'audio';
  /** Base64. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: JsonObject;
}

export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: JsonObject }
  | { uri: string; mimeType?: string; blob: string; _meta?: JsonObject };

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export type ContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | ResourceLink
  | EmbeddedResource;

export interface CallToolResult {
  content: ContentBlock[];
  /** Checked against the tool's `outputSchema` when the call succeeded. */
  structuredContent?: unknown;
  /** A failure of the tool itself, for the model to see; protocol failures throw instead. */
  isError: boolean;
  /**
   * Only with `autoRedeem: false`: the server deferred the call, and this is its handle. The
   * content says so in words; `client.redeem(pending)` waits for the real result.
   */
  pending?: CallHandle;
  _meta?: JsonObject;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: JsonObject;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
}

/** What `complete()` completes: a prompt's argument or a resource template's variable. */
export type CompletionReference =
  | { type: 'ref/prompt'; name: string }
  | { type: 'ref/resource'; uri: string };

export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
  _meta?: JsonObject;
}

export type LoggingLevel =
  | 'debug'
  | 'info'
  | 'notice'
  | 'warning'
  | 'error'
  | 'critical'
  | 'alert'
  | 'emergency';

export interface LogMessage {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

/** Progress the server reported for one call. */
export interface Progress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** Where a deferred call stands, for a UI: reported as it changes. */
export interface CallStatus {
  /**
   * `pending`: the server deferred the call; `working`: it is on it; `input_required`: it waits
   * for the user or the model (the handlers are answering); `done`: the answer is in.
   */
  state: 'pending' | 'working' | 'input_required' | 'done';
  /** The deferred work, once there is any. */
  handle?: CallHandle | undefined;
  /** The server's own words on where it stands (`statusMessage`), when it gives them. */
  message?: string | undefined;
}

/** How requests are sent again (the `retry` option). */
export interface RetryPolicy {
  /** How many times a request may be sent again after the first try. */
  retries: number;
  /** The first backoff delay; each later one doubles, with jitter. */
  minDelayMs: number;
  maxDelayMs: number;
  /** The longest `Retry-After` the client will wait; a longer one fails the call at once. */
  maxRetryAfterMs: number;
  /** How many times one call's event stream may be resumed (GET + Last-Event-ID). */
  maxResumes: number;
}

/** A call the server accepted and will finish later. Plain JSON: store it, send it, redeem it. */
export interface CallHandle {
  /** `task` (MCP 2026-07-28 or 2025-11-25) or `promise` (an MCP-lite promise token). */
  kind: 'task' | 'promise';
  /** The task id or the promise token. Treat it as a secret: whoever holds it gets the result. */
  id: string;
  /** The client's URL, which a client redeeming it must share. */
  url: string;
  /** The dialect that issued it (`mcp-stateless`, `mcp-stateful`, `mcp-lite`). */
  dialect: string;
  /** The tool whose call it stands for. */
  tool: string;
  /** When the server issued it (ISO 8601). */
  issuedAt: string;
  /** When the server may forget it (ISO 8601), if it said. */
  expiresAt?: string | undefined;
}
