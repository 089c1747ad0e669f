/**
 * Finding the MCP servers of a domain, and the card of a server URL. A domain's AI Catalog is
 * read first, then the older well-known card (servers still publish there); a server found both
 * ways is listed once, as the catalog has it. Nothing found is an empty list, not an error.
 */
import { DiscoveryError, isMcpError } from '../core/errors.ts';
import { CARD_TYPE, CATALOG_TYPE, type SkippedEntry, walkCatalog } from './catalog.ts';
import { type FetchOptions, fetchDocument, parseJson, withDispatcher } from './fetch-document.ts';
import { readCard } from './shape.ts';
import type { DiscoveredServer, ServerCard } from './types.ts';

export type DiscoverOptions = FetchOptions;

/** What a domain publishes: its servers, and what was skipped on the way, with why. */
export interface Discovery {
  origin: string;
  servers: DiscoveredServer[];
  skipped: SkippedEntry[];
}

/**
 * The origin of a domain: `example.com` is `https://example.com`; an origin given whole
 * (`http://127.0.0.1:8080`, for a local one) is taken as it is. Anything with a path is refused.
 */
export function originOf(domain: string): string {
  const withScheme = /^https?:\/\//i.test(domain) ? domain : `https://${domain}`;
  const url = URL.canParse(withScheme) ? new URL(withScheme) : undefined;
  if (!url || (url.pathname !== '/' && url.pathname !== '') || url.search || url.username) {
    throw new TypeError(
      `"${domain}" is not a domain (example.com) or an origin (https://example.com)`,
    );
  }
  return url.origin;
}

export async function discoverServers(
  domain: string,
  options: DiscoverOptions = {},
): Promise<Discovery> {
  const origin = originOf(domain);
  return withDispatcher(options, async (dispatcher) => {
    const servers: DiscoveredServer[] = [];
    const skipped: SkippedEntry[] = [];
    const catalogUrl = `${origin}/.well-known/ai-catalog.json`;
    const catalog = await fetchDocument(
      dispatcher,
      catalogUrl,
      `${CATALOG_TYPE}, application/json`,
      'catalog',
      options,
    ).catch(skip(skipped, catalogUrl));
    if (catalog?.found) {
      try {
        const walked = await walkCatalog(
          dispatcher,
          parseJson(catalog.body, 'catalog', catalog.url),
          catalog.url,
          options,
        );
        servers.push(...walked.servers);
        skipped.push(...walked.skipped);
      } catch (error) {
        skip(skipped, catalogUrl)(error);
      }
    }
    const cardUrl = `${origin}/.well-known/mcp/server-card.json`;
    const older = await fetchDocument(
      dispatcher,
      cardUrl,
      `${CARD_TYPE}, application/json`,
      'card',
      options,
    ).catch(skip(skipped, cardUrl));
    if (older?.found) {
      try {
        const card = readCard(parseJson(older.body, 'card', older.url), older.url);
        if (!servers.some((server) => server.card.name === card.name)) {
          servers.push({
            card,
            displayName: card.title ?? card.name,
            description: card.description,
            via: 'well-known',
          });
        }
      } catch (error) {
        skip(skipped, cardUrl)(error);
      }
    }
    return { origin, servers, skipped };
  });
}

/** A typed failure becomes a skipped document; anything else (a bug) still throws. */
function skip(skipped: SkippedEntry[], where: string) {
  return (error: unknown): undefined => {
    if (!isMcpError(error)) throw error;
    skipped.push({ where, reason: error.message });
    return undefined;
  };
}

/** The card a server publishes at `<server-url>/server-card`; a DiscoveryError when it has none. */
export async function fetchServerCard(
  serverUrl: string,
  options: DiscoverOptions = {},
): Promise<ServerCard> {
  if (!/^https?:\/\//i.test(serverUrl) || !URL.canParse(serverUrl)) {
    throw new TypeError(`"${serverUrl}" is not an http(s) URL`);
  }
  const url = new URL(serverUrl);
  url.pathname = `${url.pathname.replace(/\/$/, '')}/server-card`;
  return withDispatcher(options, async (dispatcher) => {
    const fetched = await fetchDocument(dispatcher, url.href, CARD_TYPE, 'card', options);
    if (!fetched.found) {
      throw new DiscoveryError('card', `none published (${fetched.status})`, {
        url: url.href,
        status: fetched.status,
      });
    }
    return readCard(parseJson(fetched.body, 'card', fetched.url), fetched.url);
  });
}

/** Reads a card from any URL (a catalog's `url`, a card URL given on a command line). */
export async function readServerCard(
  cardUrl: string,
  options: DiscoverOptions = {},
): Promise<ServerCard> {
  return withDispatcher(options, async (dispatcher) => {
    const fetched = await fetchDocument(
      dispatcher,
      cardUrl,
      `${CARD_TYPE}, application/json`,
      'card',
      options,
    );
    if (!fetched.found) {
      throw new DiscoveryError('card', `not found (${fetched.status})`, {
        url: cardUrl,
        status: fetched.status,
      });
    }
    return readCard(parseJson(fetched.body, 'card', fetched.url), fetched.url);
  });
}
