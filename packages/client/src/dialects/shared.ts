/**
 * What the client shares with every dialect it may speak (`DialectDescriptor.configure` builds
 * the dialect's own configuration from it): where the server is reached, the channel the MCP
 * dialects speak on, the options a dialect reads, and how the server's questions are answered.
 */
import type { Dispatcher } from 'undici';
import type { JsonObject } from '../core/jsonrpc.ts';
import type { RetryPolicy } from '../core/types.ts';
import type { Channel } from '../wire/channels/channel.ts';
import type { Ask } from './dialect.ts';
import type { WebtoolsOptions } from './webtools/index.ts';

/** How the server is reached: a URL over HTTP, a grpc:// or grpcs:// URL, or a local process. */
export type Medium = 'http' | 'stdio' | 'grpc';

/** The resolved options a dialect reads (the client's `ResolvedOptions` has them all). */
export interface DialectOptions {
  url: string;
  dialect: string;
  protocolVersion: string;
  headers: Record<string, string>;
  /** The `auth` option as given: only its shape matters here. */
  auth: unknown;
  timeoutMs: number;
  maxTimeoutMs: number;
  resetTimeoutOnProgress: boolean;
  maxResponseBytes: number;
  maxEventSize: number;
  retry: RetryPolicy;
  listen: boolean;
  reconnectAttempts: number;
  webtools: WebtoolsOptions;
}

export interface Shared {
  on: Medium;
  /** The channel the MCP dialects speak on: Streamable HTTP, or the local process's pipe. */
  channel: Channel;
  options: DialectOptions;
  /** HTTP only: where every request goes, gated by the client's credentials. */
  dispatcher?: Dispatcher | undefined;
  clientInfo: JsonObject;
  /** What the client declares: its handlers, and the extensions the application supports. */
  capabilities: JsonObject;
  /** Answers the server's questions (the application's handlers, above the dialects). */
  ask: Ask;
}

/** What every HTTP request of a dialect is sent with. */
export function httpSettings(options: DialectOptions, dispatcher: Dispatcher | undefined) {
  return {
    url: options.url,
    // Dialects that speak HTTP run only where the client made a dispatcher.
    dispatcher: dispatcher!,
    headers: options.headers,
    maxResponseBytes: options.maxResponseBytes,
    retry: options.retry,
  };
}

/** An MCP channel over HTTP: event streams, and how often a broken one is reopened. */
export function streamSettings(options: DialectOptions, dispatcher: Dispatcher | undefined) {
  return {
    ...httpSettings(options, dispatcher),
    maxEventSize: options.maxEventSize,
    reconnectAttempts: options.reconnectAttempts,
  };
}

/** A channel that keeps a session: its own requests (a renewal, a cancellation) are bounded too. */
export function sessionSettings(options: DialectOptions, dispatcher: Dispatcher | undefined) {
  return {
    ...streamSettings(options, dispatcher),
    timeoutMs: options.timeoutMs,
    maxTimeoutMs: options.maxTimeoutMs,
  };
}
