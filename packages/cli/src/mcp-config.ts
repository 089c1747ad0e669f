/**
 * The `mcpServers` files editors and desktop agents keep (Claude Desktop and Claude Code, Cursor,
 * Windsurf, Cline, Gemini CLI; VS Code's `servers`): each entry is a local command
 * (`command`, `args`, `env`, `cwd`) or a remote endpoint (`url`, `headers`). `${VAR}`,
 * `${VAR:-default}` and `${env:VAR}` are filled in from the environment, as those clients do.
 * Every problem is a UsageError naming the file, the entry and the field; no value is ever quoted,
 * since values hold secrets.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from './exit-codes.ts';

/** A server started as a child process and spoken to over stdin and stdout. */
export interface StdioServer {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/** A server behind a URL. `transport: 'sse'` when the entry says it speaks HTTP+SSE only. */
export interface HttpServer {
  kind: 'http';
  url: string;
  headers: Record<string, string>;
  transport?: 'sse';
}

export type ServerEntry = StdioServer | HttpServer;

/** The keys clients keep their servers under: most use `mcpServers`, VS Code `servers`. */
const LIST_KEYS = ['mcpServers', 'servers'] as const;
const HTTP_TYPES = new Set(['http', 'streamable-http', 'streamableHttp', 'sse']);
const PLACEHOLDER = /\$\{([^}]*)\}/g;

export interface ReadOptions {
  /** Where `${VAR}` is looked up. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** What `${workspaceFolder}` means. @default process.cwd() */
  cwd?: string;
}

/** Reads a config file and returns its servers by name. */
export async function readMcpConfig(
  file: string,
  options: ReadOptions = {},
): Promise<Map<string, ServerEntry>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON: ${(error as Error).message}`);
  }
  return parseMcpConfig(json, file, options);
}

/** The servers of an already parsed config document; `file` names it in errors. */
export function parseMcpConfig(
  json: unknown,
  file: string,
  options: ReadOptions = {},
): Map<string, ServerEntry> {
  const key = isRecord(json) ? LIST_KEYS.find((name) => isRecord(json[name])) : undefined;
  if (!isRecord(json) || key === undefined) {
    throw new UsageError(`${file} has no "mcpServers" (or "servers") object`);
  }
  const fill = filler(options.env ?? process.env, options.cwd ?? process.cwd());
  const servers = new Map<string, ServerEntry>();
  for (const [name, entry] of Object.entries(json[key] as Record<string, unknown>)) {
    servers.set(
      name,
      parseEntry(entry, (field) => `${file}: ${key}.${name}${field}`, fill),
    );
  }
  return servers;
}

/** Picks the server to use: the one named, or the only one. */
export function pickServer(
  servers: Map<string, ServerEntry>,
  name: string | undefined,
  file: string,
): ServerEntry {
  const names = [...servers.keys()];
  if (name === undefined) {
    if (names.length === 1) return servers.get(names[0]!)!;
    throw new UsageError(
      names.length === 0
        ? `${file} lists no servers`
        : `${file} lists ${names.length} servers; choose one with --server (${names.join(', ')})`,
    );
  }
  const entry = servers.get(name);
  if (!entry) {
    throw new UsageError(
      `${file} has no server "${name}"${names.length > 0 ? ` (it has ${names.join(', ')})` : ''}`,
    );
  }
  return entry;
}

type Where = (field: string) => string;
type Fill = (value: string, where: string) => string;

function parseEntry(entry: unknown, where: Where, fill: Fill): ServerEntry {
  if (!isRecord(entry)) throw new UsageError(`${where('')} is not an object`);
  if (entry['envFile'] !== undefined) {
    throw new UsageError(`${where('.envFile')}: env files are not read; list the variables in env`);
  }
  const type = entry['type'];
  if (type !== undefined && type !== 'stdio' && !HTTP_TYPES.has(String(type))) {
    throw new UsageError(`${where('.type')} must be stdio, http or sse`);
  }
  // Windsurf writes serverUrl; Gemini CLI httpUrl (and url for HTTP+SSE).
  const urlKey = (['url', 'serverUrl', 'httpUrl'] as const).find((key) => entry[key] !== undefined);
  const command = entry['command'];
  if (urlKey !== undefined && command !== undefined) {
    throw new UsageError(`${where('')} has both a command and a ${urlKey}; keep one`);
  }
  if (urlKey !== undefined || (type !== undefined && type !== 'stdio')) {
    if (urlKey === undefined) throw new UsageError(`${where('.url')} is missing`);
    const url = fill(text(entry[urlKey], where(`.${urlKey}`)), where(`.${urlKey}`));
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
      throw new UsageError(`${where(`.${urlKey}`)} is not an http(s) URL`);
    }
    const server: HttpServer = {
      kind: 'http',
      url,
      headers: strings(entry['headers'], where('.headers'), fill),
    };
    if (type === 'sse') server.transport = 'sse';
    return server;
  }
  if (command === undefined) throw new UsageError(`${where('')} has neither a command nor a url`);
  const args = entry['args'] ?? [];
  if (!Array.isArray(args)) throw new UsageError(`${where('.args')} must be a list of strings`);
  const server: StdioServer = {
    kind: 'stdio',
    command: fill(text(command, where('.command')), where('.command')),
    args: args.map((arg, index) => fill(text(arg, where(`.args[${index}]`)), where('.args'))),
    env: strings(entry['env'], where('.env'), fill),
  };
  if (entry['cwd'] !== undefined)
    server.cwd = fill(text(entry['cwd'], where('.cwd')), where('.cwd'));
  return server;
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new UsageError(`${where} must be a non-empty string`);
  }
  return value;
}

function strings(value: unknown, where: string, fill: Fill): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw new UsageError(`${where} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw new UsageError(`${where}.${key} must be a string`);
    out[key] = fill(item, `${where}.${key}`);
  }
  return out;
}

/** `${VAR}`, `${VAR:-default}`, `${env:VAR}` and `${workspaceFolder}`, from `env` and `cwd`. */
function filler(env: NodeJS.ProcessEnv, cwd: string): Fill {
  return (value, where) =>
    value.replace(PLACEHOLDER, (_, inner: string) => {
      if (inner === 'workspaceFolder') return cwd;
      if (inner.startsWith('input:')) {
        throw new UsageError(`${where} asks for an input (\${${inner}}), which only an editor can`);
      }
      const [name = '', fallback] = splitDefault(inner.startsWith('env:') ? inner.slice(4) : inner);
      const found = env[name];
      // As in a shell: ${VAR:-default} also replaces an empty value, ${VAR} keeps it.
      if (fallback !== undefined) return found === undefined || found === '' ? fallback : found;
      if (found !== undefined) return found;
      throw new UsageError(`${where} uses \${${name}}, which is not set in the environment`);
    });
}

function splitDefault(inner: string): [string, string | undefined] {
  const at = inner.indexOf(':-');
  return at === -1 ? [inner, undefined] : [inner.slice(0, at), inner.slice(at + 2)];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
