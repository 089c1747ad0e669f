/**
 * What the application registers to answer a server's questions, and the shapes of those
 * questions and answers (from the 2025-11-25 and 2026-07-28 schemas, which agree on them). The
 * same handler answers whichever way the server asked: a request on an event stream, an
 * `input_required` result, or a -32042 error.
 */
import type { JsonObject } from '../core/jsonrpc.ts';
import type { AudioContent, ImageContent, TextContent, Tool } from '../core/types.ts';

/** One field of an elicitation form: the schema subset the spec allows (flat, primitive). */
export type FormField = JsonObject & {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  title?: string;
  description?: string;
  default?: FormValue;
};

/** A value a form field may hold. */
export type FormValue = string | number | boolean | string[];

/** The form the server wants filled in: an object schema with primitive properties only. */
export interface RequestedSchema {
  type: 'object';
  properties: Record<string, FormField>;
  required?: string[];
  $schema?: string;
}

/** Ask the user to fill in a form; what they enter goes back to the server. */
export interface FormElicitation {
  mode: 'form';
  message: string;
  requestedSchema: RequestedSchema;
  _meta?: JsonObject;
}

/**
 * Ask the user to open `url` in a browser (to sign in, pay, enter a secret). The data never
 * passes through the client, and the library never opens, fetches or prefetches the URL: show it
 * whole, with its domain, and open it only with the user's consent.
 */
export interface UrlElicitation {
  mode: 'url';
  message: string;
  url: string;
  /** Set by 2025-11-25 servers; `elicitationComplete` events name it when the flow is done. */
  elicitationId?: string;
  _meta?: JsonObject;
}

export type ElicitationRequest = FormElicitation | UrlElicitation;

/**
 * What the user did. `content` only with `accept` of a form; fields left out get the schema's
 * defaults before the answer is checked against the form and sent.
 */
export type ElicitationResult =
  | { action: 'accept'; content?: Record<string, FormValue> }
  | { action: 'decline' }
  | { action: 'cancel' };

export interface ToolUseContent {
  type: 'tool_use';
  id: string;
  name: string;
  input: JsonObject;
  _meta?: JsonObject;
}

export interface ToolResultContent {
  type: 'tool_result';
  toolUseId: string;
  content: Array<TextContent | ImageContent | AudioContent | JsonObject>;
  structuredContent?: JsonObject;
  isError?: boolean;
  _meta?: JsonObject;
}

export type SamplingContent =
  | TextContent
  | ImageContent
  | AudioContent
  | ToolUseContent
  | ToolResultContent;

export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: SamplingContent | SamplingContent[];
  _meta?: JsonObject;
}

/** A server's request for a completion from the application's model. */
export interface SamplingRequest {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: JsonObject;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  metadata?: JsonObject;
  /** Only when `sampling.tools` is on: tools the model may call while answering. */
  tools?: Array<Pick<Tool, 'name' | 'description' | 'inputSchema'> & JsonObject>;
  toolChoice?: { mode?: 'auto' | 'required' | 'none' };
  _meta?: JsonObject;
}

export interface SamplingResult {
  role: 'assistant';
  content: SamplingContent | SamplingContent[];
  /** The model that answered. */
  model: string;
  stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse' | (string & {});
  _meta?: JsonObject;
}

/** A directory or file the server may work in (`file://` URIs). */
export interface Root {
  uri: string;
  name?: string;
  _meta?: JsonObject;
}

/** What a handler knows besides the request. */
export interface HandlerContext {
  /** Fires when the call ends, the server cancels its request, or the client closes. */
  signal: AbortSignal;
  /** The server asking: who it says it is, and where. */
  server: { name: string; version: string; protocolVersion: string; url: string };
  /** The tool whose call the question belongs to, when the server tied it to one. */
  tool?: string;
}

export type ElicitationHandler = (
  request: ElicitationRequest,
  context: HandlerContext,
) => ElicitationResult | Promise<ElicitationResult>;

export type SamplingHandler = (
  request: SamplingRequest,
  context: HandlerContext,
) => SamplingResult | Promise<SamplingResult>;

/** The roots to offer: a fixed list, or a function asked each time the server wants them. */
export type RootsOption = readonly Root[] | ((context: HandlerContext) => Root[] | Promise<Root[]>);

/** The elicitation modes a client may declare. */
export type ElicitationMode = 'form' | 'url';

/** The handlers as the client holds them after option resolution. */
export interface Handlers {
  onElicitation: ElicitationHandler | undefined;
  elicitationModes: readonly ElicitationMode[];
  onSampling: SamplingHandler | undefined;
  samplingTools: boolean;
  roots: RootsOption | undefined;
}
