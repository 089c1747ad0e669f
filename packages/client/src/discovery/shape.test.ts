import { expect, test } from 'vitest';
import { DiscoveryError } from '../core/errors.ts';
import { readCard } from './shape.ts';

test('the current card shape: remotes of known transports kept, junk dropped, inputs copied field by field', () => {
  const card = readCard(
    {
      name: 'com.example/weather',
      version: '1.2.0',
      description: 'Weather',
      remotes: [
        { type: 'websocket', url: 'wss://example.com' },
        { type: 'sse', url: 'javascript:alert(1)' },
        {
          type: 'streamable-http',
          url: 'https://{tenant}.example.com/mcp',
          variables: {
            tenant: { isRequired: true, default: 'x', evil: 'drop me' },
            'bad name': {},
          },
          headers: [{ name: 'X-Key', isSecret: true }, { isSecret: true }],
          supportedProtocolVersions: ['2025-06-18', 7],
        },
      ],
    },
    'https://example.com/card',
  );
  expect(card).toEqual({
    name: 'com.example/weather',
    version: '1.2.0',
    description: 'Weather',
    source: 'https://example.com/card',
    remotes: [
      {
        type: 'streamable-http',
        url: 'https://{tenant}.example.com/mcp',
        variables: { tenant: { isRequired: true, default: 'x' } },
        headers: [{ name: 'X-Key', isSecret: true }],
        supportedProtocolVersions: ['2025-06-18'],
      },
    ],
  });
});

test('the older well-known card: serverInfo, and transport.endpoint resolved against the card', () => {
  const card = readCard(
    {
      serverInfo: { name: 'legacy-weather', title: 'Legacy', version: '0.9' },
      transport: { type: 'streamable-http', endpoint: '/mcp' },
      protocolVersion: '2025-06-18',
    },
    'https://example.com/.well-known/mcp/server-card.json',
  );
  expect(card).toMatchObject({
    name: 'legacy-weather',
    title: 'Legacy',
    version: '0.9',
    remotes: [
      {
        type: 'streamable-http',
        url: 'https://example.com/mcp',
        supportedProtocolVersions: ['2025-06-18'],
      },
    ],
  });
});

test('a card without a name, or not an object, is a DiscoveryError', () => {
  expect(() => readCard({ version: '1' }, undefined)).toThrow(DiscoveryError);
  expect(() => readCard([], undefined)).toThrow(DiscoveryError);
});

test('a hostile card stays bounded: at most 64 remotes are read', () => {
  const remote = { type: 'streamable-http', url: 'https://example.com/mcp' };
  const card = readCard(
    { name: 'a/b', remotes: Array.from({ length: 10_000 }, () => remote) },
    undefined,
  );
  expect(card.remotes).toHaveLength(64);
});
