/**
 * The shapes discovery reads, written from the published documents (the Server Card extension,
 * the AI Catalog, the MCP Registry's server.json and its API v0.1). Every field a server, card or
 * registry sends is optional here until a parser has checked it.
 */

/** One value a card or entry asks for: a URL variable, a header, an argument, an environment variable. */
export interface InputSpec {
  description?: string;
  isRequired?: boolean;
  /** Never logged, never put in an error, left as an `${ENV}` reference in a written config. */
  isSecret?: boolean;
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  default?: string;
  placeholder?: string;
  /** A fixed value: not asked for. Its `{name}`s are filled from `variables`. */
  value?: string;
  choices?: string[];
  variables?: Record<string, InputSpec>;
}

/** A header or an environment variable: an input with a name. */
export interface NamedInput extends InputSpec {
  name: string;
}

/** A command-line argument of a package. */
export interface ArgumentSpec extends InputSpec {
  type: 'positional' | 'named';
  /** A named argument's flag, dashes included. */
  name?: string;
  /** A positional argument's label. */
  valueHint?: string;
  isRepeated?: boolean;
}

/** A way to reach a server over HTTP. */
export interface RemoteSpec {
  type: 'streamable-http' | 'sse';
  /** May hold `{variable}`s, and may start with one (`{baseUrl}/mcp`). */
  url: string;
  headers?: NamedInput[];
  variables?: Record<string, InputSpec>;
  supportedProtocolVersions?: string[];
}

/** A package a server is published as, to run on this machine. */
export interface PackageSpec {
  registryType: string;
  identifier: string;
  version?: string;
  registryBaseUrl?: string;
  fileSha256?: string;
  runtimeHint?: string;
  transport: { type: string; url?: string; headers?: NamedInput[] };
  runtimeArguments?: ArgumentSpec[];
  packageArguments?: ArgumentSpec[];
  environmentVariables?: NamedInput[];
}

/**
 * A server as a card or a registry entry describes it (a server.json is a card with packages).
 * Advisory: what the running server says about itself wins (see `CardDifference`).
 */
export interface ServerCard {
  name: string;
  version?: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  remotes?: RemoteSpec[];
  packages?: PackageSpec[];
  /** Where the card was read, when it was fetched. */
  source?: string;
}

/** A server found on a domain: the card, and what the catalog entry said of it. */
export interface DiscoveredServer {
  card: ServerCard;
  /** The catalog entry's display name, else the card's title, else its name. */
  displayName: string;
  description?: string | undefined;
  /** The catalog entry's identifier, when the card came from a catalog. */
  identifier?: string | undefined;
  /** `ai-catalog`, `well-known` (the older `/.well-known/mcp/server-card.json`) or `server-url`. */
  via: 'ai-catalog' | 'well-known' | 'server-url';
}

/** Where a card and the running server disagree: the server is right, the card is reported. */
export interface CardDifference {
  field: 'name' | 'version' | 'title' | 'protocolVersion';
  card: string;
  server: string;
}
