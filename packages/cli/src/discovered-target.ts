/**
 * Targets that name a server by what describes it: `registry:NAME` (an MCP Registry entry, from
 * `--registry URL` or the official registry) or a Server Card's URL (one ending in `/server-card`
 * or `server-card.json`). Inputs come from `--input KEY=VALUE`, then, for an environment
 * variable, this process's environment; a required one missing fails, naming it.
 */
import type { CardSource, InputRequest } from '@toolwire/client';
import { UsageError } from './exit-codes.ts';
import type { ServerEntry } from './mcp-config.ts';

export interface DiscoveredTargetOptions {
  registry?: string | undefined;
  /** `KEY=VALUE` lines: `variable:NAME`, `header:NAME`, `env:NAME`, or a bare name. */
  input?: string[] | undefined;
}

export function namesDiscoveredTarget(word: string): boolean {
  return word.startsWith('registry:') || isCardUrl(word);
}

export function isCardUrl(word: string): boolean {
  if (!/^https?:\/\//i.test(word) || !URL.canParse(word)) return false;
  return /(\/server-card|server-card\.json)$/.test(new URL(word).pathname);
}

/** The source the word names, fetched: a registry entry or a card. */
export async function sourceOf(
  word: string,
  options: DiscoveredTargetOptions,
): Promise<CardSource> {
  const client = await import('@toolwire/client');
  if (word.startsWith('registry:')) {
    const name = word.slice('registry:'.length);
    try {
      return await client.serverRegistry({ baseUrl: options.registry }).latest(name);
    } catch (error) {
      if (error instanceof TypeError) throw new UsageError(error.message);
      throw error;
    }
  }
  return client.readServerCard(word);
}

/** `--input` lines, then the environment for `env:` inputs. Values are never printed. */
export function inputsOf(lines: readonly string[] = [], env: NodeJS.ProcessEnv = process.env) {
  const given = new Map<string, string>();
  for (const line of lines) {
    const equals = line.indexOf('=');
    if (equals <= 0) throw new UsageError('an input is given as --input KEY=VALUE');
    given.set(line.slice(0, equals), line.slice(equals + 1));
  }
  return (request: InputRequest): string | undefined =>
    given.get(request.key) ??
    given.get(request.name) ??
    (request.key.startsWith('env:') ? env[request.name] : undefined);
}

/** The target a registry name or a card URL names, its inputs filled. */
export async function resolveDiscovered(
  word: string,
  options: DiscoveredTargetOptions,
): Promise<ServerEntry> {
  const source = await sourceOf(word, options);
  const { connectionOf } = await import('@toolwire/client');
  const connection = await connectionOf(source, { inputs: inputsOf(options.input) });
  if (connection.kind === 'stdio') {
    const { command, args, env } = connection;
    return { kind: 'stdio', command, args, env };
  }
  return {
    kind: 'http',
    url: connection.url,
    headers: connection.headers,
    ...(connection.options.dialect === 'mcp-sse' ? { transport: 'sse' as const } : {}),
  };
}
