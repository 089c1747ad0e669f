import { expect, test } from 'vitest';
import { DiscoveryError } from '../core/errors.ts';
import { chooseRemote, rankRemotes } from './remote.ts';
import type { RemoteSpec, ServerCard } from './types.ts';

const card = (remotes: RemoteSpec[]): ServerCard => ({ name: 'com.example/x', remotes });

test('streamable HTTP before the deprecated SSE, whatever the order in the card', () => {
  const ranked = rankRemotes(
    card([
      { type: 'sse', url: 'https://example.com/sse' },
      { type: 'streamable-http', url: 'https://example.com/mcp' },
    ]),
  );
  expect(ranked.map((r) => r.type)).toEqual(['streamable-http', 'sse']);
});

test('a remote sharing no protocol version with toolwire is passed over', async () => {
  const chosen = await chooseRemote(
    card([
      {
        type: 'streamable-http',
        url: 'https://example.com/future',
        supportedProtocolVersions: ['2099-01-01'],
      },
      { type: 'sse', url: 'https://example.com/sse', supportedProtocolVersions: ['2024-11-05'] },
    ]),
    undefined,
  );
  expect(chosen.url).toBe('https://example.com/sse');
  expect(chosen.options).toEqual({ dialect: 'mcp-sse', protocolVersion: 'legacy' });
  const none = await chooseRemote(
    card([
      {
        type: 'streamable-http',
        url: 'https://example.com/mcp',
        supportedProtocolVersions: ['1999-01-01'],
      },
    ]),
    undefined,
  ).catch((e: unknown) => e);
  expect(none).toBeInstanceOf(DiscoveryError);
});

test('versions of both eras leave negotiation to the server; one era pins the era only', async () => {
  const both = await chooseRemote(
    card([
      {
        type: 'streamable-http',
        url: 'https://e.com/mcp',
        supportedProtocolVersions: ['2026-07-28', '2025-11-25'],
      },
    ]),
    undefined,
  );
  expect(both.options).toEqual({});
  const modern = await chooseRemote(
    card([
      {
        type: 'streamable-http',
        url: 'https://e.com/mcp',
        supportedProtocolVersions: ['2026-07-28'],
      },
    ]),
    undefined,
  );
  expect(modern.options).toEqual({ protocolVersion: 'modern' });
});

test('a URL that is not http(s) once filled is refused without telling the URL', async () => {
  const error = await chooseRemote(
    card([{ type: 'streamable-http', url: '{base}/mcp', variables: { base: { isSecret: true } } }]),
    { base: 'file:///etc/SECRET-VALUE' },
  ).catch((e: unknown) => e as Error);
  expect(error).toBeInstanceOf(DiscoveryError);
  expect((error as Error).message).not.toContain('SECRET-VALUE');
});
