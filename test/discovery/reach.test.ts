/**
 * A catalog is a stranger's document: the card and catalog URLs it names are reached only over
 * https (http on loopback), and never at an address of the user's own network unless the catalog
 * itself is on one. The domain is reached by a name here (mapped to loopback by the dispatcher),
 * as a real domain is, and the dispatcher records every origin the client asked for.
 */
import { discoverServers } from '@toolwire/client';
import { expect, test } from 'vitest';
import { recordingDispatcher } from '../helpers/recording-dispatcher.ts';
import { startDomain } from './domain.ts';

test('card and catalog URLs in the user network, or over plain http elsewhere, are refused and never fetched', async () => {
  await using domain = await startDomain();
  const named = domain.origin.replace('127.0.0.1', 'catalog.test');
  const refused = [
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.7/mcp/server-card',
    'https://[fd00::1]/mcp/server-card',
    'http://cards.example.net/mcp/server-card',
    'http://127.0.0.1:1/mcp/server-card',
  ];
  domain.docs.set('/.well-known/ai-catalog.json', {
    body: {
      specVersion: '1.0',
      entries: [
        ...refused.map((url, i) => ({
          identifier: `urn:air:example.com:mcp:bad${i}`,
          type: 'application/mcp-server-card+json',
          url,
        })),
        {
          identifier: 'urn:air:example.com:mcp:nested',
          type: 'application/ai-catalog+json',
          url: 'https://192.168.1.1/catalog.json',
        },
        {
          identifier: 'urn:air:example.com:mcp:ok',
          type: 'application/mcp-server-card+json',
          url: '/ok/server-card',
        },
      ],
    },
  });
  domain.docs.set('/ok/server-card', {
    body: { name: 'com.example/ok', version: '1.0.0', description: 'on the catalog’s own origin' },
  });
  await using wire = recordingDispatcher({ named: 'catalog.test' });
  const found = await discoverServers(named, { dispatcher: wire.dispatcher });
  expect(found.servers.map((server) => server.card.name)).toEqual(['com.example/ok']);
  const reasons = found.skipped.map((skip) => skip.reason);
  expect(reasons.filter((reason) => reason.startsWith('refused'))).toHaveLength(6);
  expect(reasons.join('\n')).toMatch(/link-local address/);
  expect(reasons.join('\n')).toMatch(/private address/);
  expect(reasons.join('\n')).toMatch(/http: is not https:/);
  // Nothing but the catalog's own origin was asked for.
  expect(new Set(wire.origins)).toEqual(new Set([named]));
});
