/**
 * Which server a command talks to: a URL (the first word), a local command after `--`, or an entry
 * of an `mcpServers` file (`--config FILE --server NAME`). Exactly one of them.
 */
import {
  type DiscoveredTargetOptions,
  namesDiscoveredTarget,
  resolveDiscovered,
} from './discovered-target.ts';
import { UsageError } from './exit-codes.ts';
import { pickServer, readMcpConfig, type ServerEntry } from './mcp-config.ts';

export type Target = ServerEntry & {
  /** How to name the server to the user: the URL, the command line, or the config entry. */
  label: string;
  /** The entry's name in an mcpServers file (the server's name for its skills' directory). */
  name?: string | undefined;
};

export interface TargetOptions extends DiscoveredTargetOptions {
  config?: string | undefined;
  server?: string | undefined;
  /** `-H "Name: value"` lines, for a URL target. */
  header?: string[] | undefined;
}

/**
 * The target, and the words left for the command. `words` are the command's words before `--`;
 * `command` the words after it, if there was a `--`.
 */
export async function resolveTarget(
  words: readonly string[],
  command: readonly string[] | undefined,
  options: TargetOptions,
): Promise<{ target: Target; rest: string[] }> {
  const fromConfig = options.config !== undefined || options.server !== undefined;
  if (command !== undefined) {
    if (fromConfig) throw new UsageError('give either a command after -- or --config, not both');
    const [program, ...args] = command;
    if (program === undefined || program === '') {
      throw new UsageError('nothing after --: name the command that starts the server');
    }
    noHeaders(options, 'a command');
    return {
      target: { kind: 'stdio', command: program, args, env: {}, label: command.join(' ') },
      rest: [...words],
    };
  }
  if (fromConfig) {
    if (options.config === undefined) throw new UsageError('--server needs --config FILE');
    const servers = await readMcpConfig(options.config);
    const entry = pickServer(servers, options.server, options.config);
    const label = `${options.server ?? 'the server'} of ${options.config}`;
    const name = options.server ?? [...servers.keys()][0];
    if (entry.kind === 'stdio') {
      noHeaders(options, 'a command');
      return { target: { ...entry, label, name }, rest: [...words] };
    }
    const headers = { ...entry.headers, ...parseHeaders(options.header) };
    return { target: { ...entry, headers, label, name }, rest: [...words] };
  }
  const [first, ...rest] = words;
  if (first === undefined) {
    throw new UsageError(
      'name a server: a URL, registry:NAME, a card URL, --config FILE --server NAME, or -- COMMAND ARGS…',
    );
  }
  if (namesDiscoveredTarget(first)) {
    const entry = await resolveDiscovered(first, options);
    if (entry.kind === 'stdio') {
      noHeaders(options, 'a local package');
      return { target: { ...entry, label: first }, rest };
    }
    const headers = { ...entry.headers, ...parseHeaders(options.header) };
    return { target: { ...entry, headers, label: first }, rest };
  }
  if (!/^https?:\/\//i.test(first) || !URL.canParse(first)) {
    throw new UsageError(
      `"${first}" is not an http(s) URL; for a local server put its command after --, for one in a config file use --config FILE --server NAME`,
    );
  }
  return {
    target: { kind: 'http', url: first, headers: parseHeaders(options.header), label: first },
    rest,
  };
}

/** `Name: value` lines as a header record. */
export function parseHeaders(lines: readonly string[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError('a header is given as -H "Name: value"');
    }
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

function noHeaders(options: TargetOptions, what: string): void {
  if (options.header !== undefined && options.header.length > 0) {
    throw new UsageError(`-H sets HTTP headers, which ${what} does not take`);
  }
}
