/**
 * Discovery from a domain and from a server URL, against a local domain built from the published
 * shapes: the AI Catalog (a non-MCP entry skipped, nested catalogs, inline cards), the older
 * well-known card, `<server-url>/server-card`, ETag revalidation, and redirects.
 */
import {
  DiscoveryError,
  discoverServers,
  fetchServerCard,
  ResponseTooLargeError,
} from '@toolwire/client';
import { expect, test } from 'vitest';
import { startDomain } from './domain.ts';

const SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

test('a domain: catalog entries by url, inline and nested; other types skipped; then the older card', async () => {
  await using domain = await startDomain();
  domain.docs.set('/.well-known/ai-catalog.json', {
    body: {
      specVersion: '1.0',
      entries: [
        {
          identifier: 'urn:example:a2a:research',
          type: 'application/a2a-agent-card+json',
          url: '/agent.json',
        },
        {
          identifier: 'urn:air:example.com:mcp:weather',
          displayName: 'Weather (catalog name)',
          type: 'application/mcp-server-card+json',
          url: '/weather/mcp/server-card',
        },
        {
          identifier: 'urn:air:example.com:mcp:inline',
          mediaType: 'application/mcp-server-card+json',
          data: {
            $schema: SCHEMA,
            name: 'com.example/inline',
            version: '1.0.0',
            description: 'Inline card',
          },
        },
        {
          identifier: 'urn:example:catalog:team',
          type: 'application/ai-catalog+json',
          url: '/team/catalog.json',
        },
        {
          identifier: 'urn:air:example.com:mcp:gone',
          type: 'application/mcp-server-card+json',
          url: '/gone',
        },
      ],
    },
  });
  domain.docs.set('/weather/mcp/server-card', {
    body: {
      $schema: SCHEMA,
      name: 'com.example/weather',
      version: '2.0.0',
      title: 'Weather',
      description: 'Forecasts',
      remotes: [{ type: 'streamable-http', url: 'https://example.com/weather/mcp' }],
    },
  });
  domain.docs.set('/team/catalog.json', {
    body: {
      specVersion: '1.0',
      entries: [
        {
          identifier: 'urn:air:example.com:mcp:nested',
          type: 'application/mcp-server-card+json',
          data: { name: 'com.example/nested', version: '0.1.0', description: 'Nested' },
        },
      ],
    },
  });
  domain.docs.set('/.well-known/mcp/server-card.json', {
    body: {
      serverInfo: { name: 'legacy', title: 'Legacy server', version: '0.9.0' },
      transport: { type: 'streamable-http', endpoint: '/legacy/mcp' },
    },
  });

  const found = await discoverServers(domain.origin);
  expect(found.origin).toBe(domain.origin);
  expect(found.servers.map((s) => [s.card.name, s.displayName, s.via])).toEqual([
    ['com.example/weather', 'Weather (catalog name)', 'ai-catalog'],
    ['com.example/inline', 'com.example/inline', 'ai-catalog'],
    ['com.example/nested', 'com.example/nested', 'ai-catalog'],
    ['legacy', 'Legacy server', 'well-known'],
  ]);
  // The older card's endpoint is relative to the card.
  expect(found.servers[3]!.card.remotes).toEqual([
    { type: 'streamable-http', url: `${domain.origin}/legacy/mcp` },
  ]);
  // The A2A entry was never fetched; the missing card is reported, not thrown.
  expect(domain.log.map((r) => r.path)).not.toContain('/agent.json');
  expect(found.skipped).toEqual([
    { where: 'urn:air:example.com:mcp:gone', reason: expect.stringContaining('no card') },
  ]);
  const cardRequest = domain.log.find((r) => r.path === '/weather/mcp/server-card');
  expect(cardRequest?.headers.accept).toContain('application/mcp-server-card+json');
});

test('a domain with nothing published: no servers, no error', async () => {
  await using domain = await startDomain();
  const found = await discoverServers(domain.origin);
  expect(found.servers).toEqual([]);
});

test('a server URL: the card at <url>/server-card, asked for by its media type', async () => {
  await using domain = await startDomain();
  domain.docs.set('/mcp/server-card', {
    headers: { 'content-type': 'application/mcp-server-card+json' },
    body: { $schema: SCHEMA, name: 'com.example/x', version: '1.0.0', description: 'X' },
  });
  const card = await fetchServerCard(`${domain.origin}/mcp`);
  expect(card).toMatchObject({ name: 'com.example/x', source: `${domain.origin}/mcp/server-card` });
  expect(domain.log[0]!.headers.accept).toBe('application/mcp-server-card+json');
  const none = await fetchServerCard(`${domain.origin}/other`).catch((e: unknown) => e);
  expect(none).toBeInstanceOf(DiscoveryError);
  expect(none).toMatchObject({ code: 'DISCOVERY', status: 404 });
});

test('ETag: a stale card is asked again with If-None-Match, and a 304 keeps it', async () => {
  await using domain = await startDomain();
  domain.docs.set('/mcp/server-card', {
    etag: '"v1"',
    headers: { 'cache-control': 'no-cache' },
    body: { name: 'com.example/etag', version: '1.0.0', description: 'E' },
  });
  const cache = new Map();
  const first = await fetchServerCard(`${domain.origin}/mcp`, { cache });
  const second = await fetchServerCard(`${domain.origin}/mcp`, { cache });
  expect(second).toEqual(first);
  expect(domain.log.map((r) => [r.headers['if-none-match'], r.status])).toEqual([
    [undefined, 200],
    ['"v1"', 304],
  ]);
});

test('Cache-Control max-age: a fresh card is not asked for again', async () => {
  await using domain = await startDomain();
  domain.docs.set('/mcp/server-card', {
    headers: { 'cache-control': 'public, max-age=3600' },
    body: { name: 'com.example/fresh', version: '1.0.0', description: 'F' },
  });
  const cache = new Map();
  await fetchServerCard(`${domain.origin}/mcp`, { cache });
  await fetchServerCard(`${domain.origin}/mcp`, { cache });
  expect(domain.log).toHaveLength(1);
});

test('a redirect to another origin is not followed; one on the same origin is', async () => {
  await using domain = await startDomain();
  await using elsewhere = await startDomain();
  elsewhere.docs.set('/mcp/server-card', {
    body: { name: 'evil/card', version: '1', description: 'E' },
  });
  domain.docs.set('/away/server-card', {
    status: 302,
    headers: { location: `${elsewhere.origin}/mcp/server-card?t=1` },
  });
  domain.docs.set('/here/server-card', { status: 301, headers: { location: '/mcp/server-card' } });
  domain.docs.set('/mcp/server-card', {
    body: { name: 'good/card', version: '1', description: 'G' },
  });
  const away = (await fetchServerCard(`${domain.origin}/away`).catch((e: unknown) => e)) as Error;
  expect(away).toBeInstanceOf(DiscoveryError);
  expect(away.message).toContain(elsewhere.origin);
  expect(away.message).not.toContain('t=1');
  expect(elsewhere.log).toEqual([]);
  expect(await fetchServerCard(`${domain.origin}/here`)).toMatchObject({ name: 'good/card' });
});

test('a hostile card: too large, or not JSON, is a typed error', async () => {
  await using domain = await startDomain();
  domain.docs.set('/big/server-card', { body: { name: 'a/b', description: 'x'.repeat(10_000) } });
  domain.docs.set('/html/server-card', {
    headers: { 'content-type': 'text/html' },
    body: '<html>',
  });
  const big = await fetchServerCard(`${domain.origin}/big`, { maxResponseBytes: 1000 }).catch(
    (e: unknown) => e,
  );
  expect(big).toBeInstanceOf(ResponseTooLargeError);
  const html = await fetchServerCard(`${domain.origin}/html`).catch((e: unknown) => e);
  expect(html).toBeInstanceOf(DiscoveryError);
});
