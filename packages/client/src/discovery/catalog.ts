/**
 * An AI Catalog read for MCP servers: entries of the Server Card type, by `url` (fetched with the
 * card's media type) or inline `data`; nested catalogs followed to a depth of four; every other
 * type skipped. A bad entry is reported and skipped, never the end of the walk.
 */
import type { Dispatcher } from 'undici';
import { refusalToReach } from '../auth/reach.ts';
import { isMcpError } from '../core/errors.ts';
import { type FetchOptions, fetchDocument, parseJson } from './fetch-document.ts';
import { isObject, type Loose, readCard, text } from './shape.ts';
import type { DiscoveredServer } from './types.ts';

export const CARD_TYPE = 'application/mcp-server-card+json';
export const CATALOG_TYPE = 'application/ai-catalog+json';

// The catalog's recommended depth; and a bound on requests, so one domain cannot fan out.
const MAX_DEPTH = 4;
const MAX_FETCHES = 32;
const MAX_ENTRIES = 256;

/** An entry that was not used, and why (a message naming no secret: catalogs carry none). */
export interface SkippedEntry {
  where: string;
  reason: string;
}

interface Walk {
  /** The catalog the walk started from: what its documents may make the client reach is judged by it. */
  root: URL;
  dispatcher: Dispatcher;
  options: FetchOptions;
  servers: DiscoveredServer[];
  skipped: SkippedEntry[];
  fetches: number;
  entries: number;
}

/** The MCP servers a catalog document (already fetched from `url`) lists. */
export async function walkCatalog(
  dispatcher: Dispatcher,
  raw: unknown,
  url: string,
  options: FetchOptions,
): Promise<{ servers: DiscoveredServer[]; skipped: SkippedEntry[] }> {
  const walk: Walk = {
    root: new URL(url),
    dispatcher,
    options,
    servers: [],
    skipped: [],
    fetches: 0,
    entries: 0,
  };
  await visit(walk, raw, url, 1);
  return { servers: walk.servers, skipped: walk.skipped };
}

async function visit(walk: Walk, raw: unknown, url: string, depth: number): Promise<void> {
  if (!isObject(raw) || !Array.isArray(raw.entries)) {
    walk.skipped.push({ where: url, reason: 'not an AI Catalog (no entries)' });
    return;
  }
  for (const entry of raw.entries) {
    if (++walk.entries > MAX_ENTRIES) {
      walk.skipped.push({
        where: url,
        reason: `more than ${MAX_ENTRIES} entries, the rest unread`,
      });
      return;
    }
    if (!isObject(entry)) continue;
    // The catalog spec names it `mediaType`; the MCP discovery page, `type`.
    const type = text(entry.type) ?? text(entry.mediaType);
    const where = text(entry.identifier) ?? url;
    try {
      if (type === CARD_TYPE) await cardEntry(walk, entry, url, where);
      else if (type === CATALOG_TYPE) await nestedEntry(walk, entry, url, where, depth);
    } catch (error) {
      if (!isMcpError(error)) throw error;
      walk.skipped.push({ where, reason: error.message });
    }
  }
}

async function cardEntry(walk: Walk, entry: Loose, base: string, where: string) {
  let card: ReturnType<typeof readCard>;
  if (entry.data !== undefined) {
    card = readCard(entry.data, base);
  } else {
    const at = entryUrl(walk, entry, base, where);
    if (!at) return;
    const fetched = await fetchCounted(walk, at, CARD_TYPE, 'card');
    if (!fetched) return void walk.skipped.push({ where, reason: `no card at ${at}` });
    card = readCard(parseJson(fetched.body, 'card', fetched.url), fetched.url);
  }
  walk.servers.push({
    card,
    displayName: text(entry.displayName) ?? card.title ?? card.name,
    description: text(entry.description) ?? card.description,
    identifier: text(entry.identifier),
    via: 'ai-catalog',
  });
}

async function nestedEntry(walk: Walk, entry: Loose, base: string, where: string, depth: number) {
  if (depth >= MAX_DEPTH) {
    return void walk.skipped.push({ where, reason: `nested deeper than ${MAX_DEPTH}` });
  }
  if (entry.data !== undefined) return visit(walk, entry.data, base, depth + 1);
  const at = entryUrl(walk, entry, base, where);
  if (!at) return;
  const fetched = await fetchCounted(walk, at, CATALOG_TYPE, 'catalog');
  if (!fetched) return void walk.skipped.push({ where, reason: `no catalog at ${at}` });
  return visit(walk, parseJson(fetched.body, 'catalog', fetched.url), fetched.url, depth + 1);
}

/**
 * The URL an entry names, or undefined (and the entry skipped, saying why). A catalog may name
 * documents on other domains, but it is a stranger's document: only https (http on loopback),
 * and never an address of the user's own network unless the catalog itself is on one, as for
 * what a server names for authorization (auth/reach.ts).
 */
function entryUrl(walk: Walk, entry: Loose, base: string, where: string): string | undefined {
  const url = text(entry.url);
  if (!url || !URL.canParse(url, base)) {
    walk.skipped.push({ where, reason: 'neither url nor data' });
    return undefined;
  }
  const resolved = new URL(url, base);
  const refusal = refusalToReach(resolved, walk.root);
  if (refusal) {
    walk.skipped.push({ where, reason: `refused ${resolved.origin}: ${refusal}` });
    return undefined;
  }
  return resolved.href;
}

async function fetchCounted(walk: Walk, url: string, accept: string, document: string) {
  if (++walk.fetches > MAX_FETCHES) {
    walk.skipped.push({ where: url, reason: `more than ${MAX_FETCHES} documents, not fetched` });
    return undefined;
  }
  const fetched = await fetchDocument(
    walk.dispatcher,
    url,
    `${accept}, application/json`,
    document,
    walk.options,
  );
  return fetched.found ? fetched : undefined;
}
