/**
 * Discovery's public functions, light: each imports its module on first use, so importing
 * @toolwire/client loads none of discovery (test/architecture/import-cost.test.ts).
 */
import type { McpClient } from '../client/client.ts';
import type { BundleOptions, VerifiedBundle } from './bundle.ts';
import type { DiscoverOptions, Discovery } from './discover.ts';
import type { CardConnection, CardSource, FromCardOptions } from './from.ts';
import type { PackageCommand, PackageOptions } from './packages.ts';
import type {
  RegistryEntry,
  RegistryPage,
  SearchOptions,
  ServerRegistry,
  ServerRegistryOptions,
} from './server-registry.ts';
import type { CardDifference, PackageSpec, ServerCard } from './types.ts';

/** The MCP servers a domain publishes: its AI Catalog, then its older well-known card. */
export async function discoverServers(
  domain: string,
  options?: DiscoverOptions,
): Promise<Discovery> {
  return (await import('./discover.ts')).discoverServers(domain, options);
}

/** The card a server publishes at `<server-url>/server-card`. */
export async function fetchServerCard(
  serverUrl: string,
  options?: DiscoverOptions,
): Promise<ServerCard> {
  return (await import('./discover.ts')).fetchServerCard(serverUrl, options);
}

/** A card read from its own URL (a catalog's `url`, a card URL given by a person). */
export async function readServerCard(
  cardUrl: string,
  options?: DiscoverOptions,
): Promise<ServerCard> {
  return (await import('./discover.ts')).readServerCard(cardUrl, options);
}

/** A client for a card, a discovered server or a registry entry. */
export async function createMcpClientFrom(
  source: CardSource,
  options?: FromCardOptions,
): Promise<McpClient> {
  return (await import('./from.ts')).createMcpClientFrom(source, options);
}

/** How to reach what a card describes (a URL and headers, or a command line), its inputs filled. */
export async function connectionOf(
  source: CardSource,
  options?: Pick<FromCardOptions, 'inputs' | 'prefer' | 'path'>,
): Promise<CardConnection> {
  return (await import('./from.ts')).connectionOf(source, options);
}

/** Where a card and its connected server disagree; the server wins. */
export async function checkCard(card: ServerCard, client: McpClient): Promise<CardDifference[]> {
  return (await import('./from.ts')).checkCard(card, client);
}

/** The command line that runs a card's package on this machine. */
export async function packageCommand(
  card: ServerCard,
  options?: PackageOptions,
): Promise<PackageCommand> {
  return (await import('./packages.ts')).packageCommand(card, options);
}

/** An mcpb package downloaded and checked against its fileSha256. */
export async function verifyBundle(
  pkg: PackageSpec,
  options: BundleOptions,
): Promise<VerifiedBundle> {
  return (await import('./bundle.ts')).verifyBundle(pkg, options);
}

/** An MCP Registry (API v0.1); the official one unless `baseUrl` names another. */
export function serverRegistry(options: ServerRegistryOptions = {}): ServerRegistry {
  let loaded: Promise<ServerRegistry> | undefined;
  const inner = () => {
    loaded ??= import('./server-registry.ts').then((module) => module.serverRegistry(options));
    return loaded;
  };
  return {
    baseUrl: String(options.baseUrl ?? 'https://registry.modelcontextprotocol.io').replace(
      /\/+$/,
      '',
    ),
    search: async (query: string, search?: SearchOptions): Promise<RegistryPage> =>
      (await inner()).search(query, search),
    latest: async (name: string): Promise<RegistryEntry> => (await inner()).latest(name),
    get: async (name: string, version?: string): Promise<RegistryEntry> =>
      (await inner()).get(name, version),
    versions: async (name: string): Promise<RegistryPage> => (await inner()).versions(name),
  };
}
