/**
 * What `createMcpClients` takes, turned into one client's target and options per server: URLs,
 * URLs with their own options, local commands (stdio), or the `mcpServers` object of an editor's
 * or a desktop app's configuration file.
 */

import type { ClientOptions } from '../client/options.ts';
import type { StdioServer } from '../client/stdio-server.ts';
import { isObject } from '../core/jsonrpc.ts';
import { isServerName } from './names.ts';

export type { StdioServer };

/** A server reached over HTTP, with options of its own over the shared ones. */
export interface UrlServer extends ClientOptions {
  url: string | URL;
}

export type ServerTarget = string | URL | UrlServer | StdioServer;

/**
 * One entry of an `mcpServers` configuration, the shape Claude Desktop, Cursor, VS Code and others
 * write: a `command` (stdio) or a `url`, with a `type` when the file says which.
 */
export interface McpServerConfig {
  type?: 'stdio' | 'http' | 'streamable-http' | 'sse';
  command?: string;
  args?: readonly string[];
  cwd?: string;
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  /** Some configurations switch a server off without removing it: it is left out. */
  disabled?: boolean;
}

/** Servers by name, or an `mcpServers` configuration object. */
export type ServerTargets =
  | Readonly<Record<string, ServerTarget>>
  | { readonly mcpServers: Readonly<Record<string, McpServerConfig>> };

/** One server, ready for `createMcpClient`. */
export interface ServerEntry {
  name: string;
  target: string | URL | StdioServer;
  options: ClientOptions;
}

export function isStdioTarget(target: unknown): target is StdioServer {
  return isObject(target) && typeof target['command'] === 'string';
}

/** The servers `targets` names, checked: a misnamed or misshapen one is a TypeError naming it. */
export function readTargets(targets: ServerTargets, shared: ClientOptions): ServerEntry[] {
  if (!isObject(targets))
    throw new TypeError('expected the servers to be an object of name → target');
  const config = targets['mcpServers'];
  const entries: ServerEntry[] = [];
  if (config !== undefined) {
    if (!isObject(config)) throw new TypeError('expected `mcpServers` to be an object');
    for (const [name, entry] of Object.entries(config)) {
      const read = fromConfig(name, entry);
      if (read) entries.push({ ...read, options: merged(shared, read.options) });
    }
  } else {
    for (const [name, target] of Object.entries(targets)) {
      entries.push(fromTarget(name, target as ServerTarget, shared));
    }
  }
  for (const { name } of entries) {
    if (!isServerName(name)) {
      throw new TypeError(
        `expected server names of letters, digits, "-" and single "_" (they prefix tool names), got "${name}"`,
      );
    }
  }
  if (entries.length === 0) throw new TypeError('expected at least one server');
  return entries;
}

function fromTarget(name: string, target: ServerTarget, shared: ClientOptions): ServerEntry {
  if (typeof target === 'string' || target instanceof URL) {
    return { name, target, options: shared };
  }
  if (isStdioTarget(target)) return { name, target, options: shared };
  if (isObject(target) && (typeof target['url'] === 'string' || target['url'] instanceof URL)) {
    const { url, ...own } = target as UrlServer;
    return { name, target: url, options: merged(shared, own) };
  }
  throw new TypeError(
    `server "${name}": expected a URL, { url, ...options } or { command, args? }`,
  );
}

/** A server's own options over the shared ones; headers and extensions are merged, not replaced. */
function merged(shared: ClientOptions, own: ClientOptions): ClientOptions {
  const options: ClientOptions = { ...shared, ...own };
  if (shared.headers && own.headers) options.headers = mergedHeaders(shared.headers, own.headers);
  if (shared.extensions && own.extensions) {
    options.extensions = { ...shared.extensions, ...own.extensions };
  }
  return options;
}

type Headers = NonNullable<ClientOptions['headers']>;

/** The server's headers over the shared ones; either may be a function asked before each request. */
function mergedHeaders(shared: Headers, own: Headers): Headers {
  if (typeof shared !== 'function' && typeof own !== 'function') return { ...shared, ...own };
  return async (request) => ({
    ...(typeof shared === 'function' ? await shared(request) : shared),
    ...(typeof own === 'function' ? await own(request) : own),
  });
}

function fromConfig(name: string, entry: unknown): ServerEntry | undefined {
  if (!isObject(entry)) throw new TypeError(`mcpServers.${name}: expected an object`);
  const config = entry as McpServerConfig;
  if (config.disabled === true) return undefined;
  if (typeof config.command === 'string' && config.type !== 'http' && config.type !== 'sse') {
    const target: StdioServer = { command: config.command };
    if (config.args !== undefined) target.args = [...config.args];
    if (config.cwd !== undefined) target.cwd = config.cwd;
    if (config.env !== undefined) target.env = { ...config.env };
    return { name, target, options: {} };
  }
  if (typeof config.url === 'string') {
    const options: ClientOptions = {
      // The file says the server is MCP: no need to probe for the other dialects.
      dialect: config.type === 'sse' ? 'mcp-sse' : 'mcp',
    };
    if (config.headers !== undefined) options.headers = { ...config.headers };
    return { name, target: config.url, options };
  }
  throw new TypeError(`mcpServers.${name}: expected a "command" or a "url"`);
}
