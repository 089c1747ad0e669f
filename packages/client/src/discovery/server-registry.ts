/**
 * The MCP Registry API, v0.1: search (latest versions unless asked for all), an entry's latest or
 * given version, its versions; names and versions URL-encoded; the `{ server, _meta }` answers
 * and `metadata.nextCursor` pages as published. `baseUrl` is a registry's root, without `/v0.1`.
 */
import { DiscoveryError, isMcpError } from '../core/errors.ts';
import { type FetchOptions, fetchDocument, parseJson, withDispatcher } from './fetch-document.ts';
import { isObject, readCard, text } from './shape.ts';
import type { ServerCard } from './types.ts';

export const OFFICIAL_REGISTRY = 'https://registry.modelcontextprotocol.io';

export interface ServerRegistryOptions extends FetchOptions {
  /** A registry's root (`https://registry.example.com`), without `/v0.1`. @default the official one */
  baseUrl?: string | URL | undefined;
}

/** One entry as the registry serves it: the server.json, and what the registry says of it. */
export interface RegistryEntry {
  server: ServerCard;
  status?: 'active' | 'deprecated' | 'deleted' | undefined;
  isLatest?: boolean | undefined;
  publishedAt?: string | undefined;
  updatedAt?: string | undefined;
}

export interface SearchOptions {
  /** The cursor of the previous page (`nextCursor`). */
  cursor?: string | undefined;
  limit?: number | undefined;
  /** Every version, not only the latest. @default false */
  allVersions?: boolean | undefined;
}

export interface RegistryPage {
  servers: RegistryEntry[];
  /** Absent on the last page. */
  nextCursor?: string | undefined;
  /** Entries left out because they were not the published shape. */
  malformed: number;
}

export interface ServerRegistry {
  readonly baseUrl: string;
  search(query: string, options?: SearchOptions): Promise<RegistryPage>;
  latest(name: string): Promise<RegistryEntry>;
  get(name: string, version?: string): Promise<RegistryEntry>;
  versions(name: string): Promise<RegistryPage>;
}

const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

export function serverRegistry(options: ServerRegistryOptions = {}): ServerRegistry {
  const base = baseOf(options.baseUrl ?? OFFICIAL_REGISTRY);
  const getJson = (path: string, what: string) =>
    withDispatcher(options, async (dispatcher) => {
      const url = `${base}/v0.1${path}`;
      const fetched = await fetchDocument(dispatcher, url, 'application/json', 'registry', options);
      if (!fetched.found) {
        throw new DiscoveryError('registry', `${what} not found`, { url, status: fetched.status });
      }
      return { raw: parseJson(fetched.body, 'registry', fetched.url), url: fetched.url };
    });
  const one = async (name: string, version: string) => {
    const { raw, url } = await getJson(
      `/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`,
      `${name} ${version}`,
    );
    const entry = entryOf(raw);
    if (!entry) throw new DiscoveryError('registry', 'answer is not a server entry', { url });
    return entry;
  };
  return {
    baseUrl: base,
    async search(query, search = {}) {
      const params = new URLSearchParams();
      if (query) params.set('search', query);
      if (!search.allVersions) params.set('version', 'latest');
      if (search.limit !== undefined) params.set('limit', String(search.limit));
      if (search.cursor) params.set('cursor', search.cursor);
      const { raw, url } = await getJson(`/servers?${params}`, 'the server list');
      return pageOf(raw, url);
    },
    latest: (name) => one(checkName(name), 'latest'),
    get: (name, version = 'latest') => one(checkName(name), version),
    async versions(name) {
      const { raw, url } = await getJson(
        `/servers/${encodeURIComponent(checkName(name))}/versions`,
        name,
      );
      return pageOf(raw, url);
    },
  };
}

function baseOf(baseUrl: string | URL): string {
  const text = String(baseUrl).replace(/\/+$/, '');
  if (!/^https?:\/\//i.test(text) || !URL.canParse(text)) {
    throw new TypeError(`baseUrl "${text}" is not an http(s) URL`);
  }
  if (/\/v0(\.\d+)?$/.test(text)) {
    throw new TypeError(
      `baseUrl "${text}" names an API version; give the registry's root (toolwire adds /v0.1)`,
    );
  }
  return text;
}

function checkName(name: string): string {
  if (typeof name !== 'string' || !/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(name)) {
    throw new TypeError(`"${String(name).slice(0, 80)}" is not a registry name (namespace/name)`);
  }
  return name;
}

function pageOf(raw: unknown, url: string): RegistryPage {
  if (!isObject(raw) || !Array.isArray(raw.servers)) {
    throw new DiscoveryError('registry', 'answer has no servers list', { url });
  }
  const servers: RegistryEntry[] = [];
  let malformed = 0;
  for (const item of raw.servers.slice(0, 1000)) {
    const entry = entryOf(item);
    if (entry) servers.push(entry);
    else malformed++;
  }
  const cursor = isObject(raw.metadata) ? text(raw.metadata.nextCursor) : undefined;
  return { servers, ...(cursor ? { nextCursor: cursor } : {}), malformed };
}

function entryOf(raw: unknown): RegistryEntry | undefined {
  if (!isObject(raw) || !isObject(raw.server)) return undefined;
  let server: ServerCard;
  try {
    server = readCard(raw.server, undefined);
  } catch (error) {
    if (isMcpError(error)) return undefined;
    throw error;
  }
  const meta =
    isObject(raw._meta) && isObject(raw._meta[OFFICIAL_META]) ? raw._meta[OFFICIAL_META] : {};
  const status = text(meta.status);
  return {
    server,
    ...(status === 'active' || status === 'deprecated' || status === 'deleted' ? { status } : {}),
    ...(typeof meta.isLatest === 'boolean' ? { isLatest: meta.isLatest } : {}),
    ...(text(meta.publishedAt) ? { publishedAt: text(meta.publishedAt) } : {}),
    ...(text(meta.updatedAt) ? { updatedAt: text(meta.updatedAt) } : {}),
  };
}
