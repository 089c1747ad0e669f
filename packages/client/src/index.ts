/**
 * @toolwire/client: the public face. Every export here is API; nothing else is.
 */
export {
  type CallToolOptions,
  createMcpClient,
  type ListOptions,
  McpClient,
  type RequestOptions,
} from './client.ts';
export type { Progress } from './dialects/dialect.ts';
export {
  AbortedError,
  ClientClosedError,
  ContentTypeError,
  type ErrorContext,
  HttpStatusError,
  InputRequiredError,
  isMcpError,
  JsonRpcError,
  MalformedMessageError,
  McpError,
  type McpErrorCode,
  OutputValidationError,
  ResponseTooLargeError,
  SessionExpiredError,
  StreamTruncatedError,
  TimeoutError,
  ToolNotFoundError,
  TransportError,
  UnsupportedVersionError,
} from './errors.ts';
export type { ClientEvents } from './events.ts';
export type { JsonObject } from './jsonrpc.ts';
export { type ClientInfo, type ClientOptions, DEFAULTS, STATEFUL_VERSIONS } from './options.ts';
export type { RetryPolicy } from './transport/retry.ts';
export type * from './types.ts';
