/**
 * A client from what discovery found: a card's remote (chosen by transport and protocol
 * versions, its variables and headers filled) or, for a registry entry with packages and no
 * remote, its package run locally. And the card checked against the running server, which wins.
 */
import { createMcpClient, type McpClient } from '../client/client.ts';
import type { ClientOptions } from '../client/options.ts';
import type { InputSource } from './inputs.ts';
import { packageCommand } from './packages.ts';
import { chooseRemote } from './remote.ts';
import { isObject, type Loose, readCard } from './shape.ts';
import type { CardDifference, DiscoveredServer, ServerCard } from './types.ts';

export interface FromCardOptions extends ClientOptions {
  /** Values for the card's inputs (URL variables, headers, arguments, environment). */
  inputs?: InputSource | undefined;
  /** Which to use when an entry has both. @default 'remote' */
  prefer?: 'remote' | 'package' | undefined;
  /** The PATH a package's runner is looked for on. @default process.env.PATH */
  path?: string | undefined;
}

/** A card, a discovered server, a registry entry (`{ server }`) or a server.json as parsed JSON. */
export type CardSource =
  | ServerCard
  | DiscoveredServer
  | { server: unknown }
  | Record<string, unknown>;

export function cardOf(source: CardSource): ServerCard {
  const loose = source as Loose;
  if (isObject(loose.card)) return loose.card as unknown as ServerCard;
  if (isObject(loose.server) && loose.name === undefined) return readCard(loose.server, undefined);
  // Read again even when typed as a card: it may have come straight from JSON.parse.
  return readCard(source, typeof loose.source === 'string' ? loose.source : undefined);
}

/**
 * How to reach what a card describes, before any client: a URL with its headers, or a command
 * line. `secret` names the headers or environment variables a secret went into, so a caller
 * writing it down (an mcpServers file) can leave those as references.
 */
export type CardConnection =
  | {
      kind: 'http';
      url: string;
      headers: Record<string, string>;
      secret: string[];
      /** True when a secret went into the URL itself. */
      secretUrl: boolean;
      options: Pick<ClientOptions, 'protocolVersion' | 'dialect'>;
    }
  | {
      kind: 'stdio';
      command: string;
      args: string[];
      env: Record<string, string>;
      secret: string[];
    };

export async function connectionOf(
  source: CardSource,
  options: Pick<FromCardOptions, 'inputs' | 'prefer' | 'path'> = {},
): Promise<CardConnection> {
  const card = cardOf(source);
  const hasRemote = (card.remotes ?? []).length > 0;
  const hasPackage = (card.packages ?? []).length > 0;
  if (hasPackage && (!hasRemote || options.prefer === 'package')) {
    const { command, args, env, secretEnv } = await packageCommand(card, options);
    return { kind: 'stdio', command, args, env, secret: secretEnv };
  }
  const chosen = await chooseRemote(card, options.inputs);
  return {
    kind: 'http',
    url: chosen.url,
    headers: chosen.headers,
    secret: chosen.secretHeaders,
    secretUrl: chosen.secretUrl,
    options: chosen.options,
  };
}

export async function createMcpClientFrom(
  source: CardSource,
  options: FromCardOptions = {},
): Promise<McpClient> {
  const { inputs, prefer, path, ...clientOptions } = options;
  if (typeof clientOptions.headers === 'function') {
    throw new TypeError(
      "with a card, give `headers` as a record: the card's headers are merged into it",
    );
  }
  const connection = await connectionOf(source, { inputs, prefer, path });
  if (connection.kind === 'stdio') {
    const { command, args, env } = connection;
    return createMcpClient({ command, args, env }, clientOptions);
  }
  const headers = { ...connection.headers, ...clientOptions.headers };
  return createMcpClient(connection.url, { ...connection.options, ...clientOptions, headers });
}

/**
 * Where the card and the connected server disagree (name, version, title, protocol version): the
 * card is advisory, so nothing is changed; the differences are for a person to see. Connects.
 */
export async function checkCard(card: ServerCard, client: McpClient): Promise<CardDifference[]> {
  await client.connect();
  const info = client.serverInfo;
  const differences: CardDifference[] = [];
  const compare = (field: CardDifference['field'], said: string | undefined, actual: unknown) => {
    if (said !== undefined && typeof actual === 'string' && said !== actual) {
      differences.push({ field, card: said, server: actual });
    }
  };
  compare('name', card.name, info?.name);
  compare('version', card.version, info?.version);
  compare('title', card.title, info?.title);
  const negotiated = client.protocolVersion;
  const versions = (card.remotes ?? []).flatMap((remote) => remote.supportedProtocolVersions ?? []);
  if (negotiated && versions.length > 0 && !versions.includes(negotiated)) {
    differences.push({ field: 'protocolVersion', card: versions.join(', '), server: negotiated });
  }
  return differences;
}
