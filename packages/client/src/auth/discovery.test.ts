import { describe, expect, test } from 'vitest';
import { AuthorizationError } from '../core/errors.ts';
import { discoverResource, metadataUrls, resourceCovers } from './discovery.ts';
import type { AuthFetch } from './fetch.ts';
import { isLoopback } from './reach.ts';

describe('metadataUrls: the specification order', () => {
  test('an issuer without a path: RFC 8414, then OpenID Connect', () => {
    expect(metadataUrls(new URL('https://auth.example.com'))).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
  });

  test('an issuer with a path: RFC 8414 insertion, OIDC insertion, OIDC appending', () => {
    expect(metadataUrls(new URL('https://auth.example.com/tenant1/'))).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
  });
});

describe('resourceCovers', () => {
  const server = new URL('https://mcp.example.com/api/mcp');
  test.each([
    ['https://mcp.example.com/api/mcp', true],
    ['https://mcp.example.com/api/mcp/', true],
    ['https://mcp.example.com/api', true],
    ['https://mcp.example.com', true],
    ['https://mcp.example.com/ap', false],
    ['https://mcp.example.com/api/mcp/more', false],
    ['https://evil.example.com/api/mcp', false],
    ['http://mcp.example.com/api/mcp', false],
    ['https://mcp.example.com/api/mcp#x', false],
    ['not a url', false],
  ])('%s → %s', (resource, covered) => {
    expect(resourceCovers(resource, server)).toBe(covered);
  });
});

test('plain HTTP only for loopback hosts', () => {
  expect(isLoopback(new URL('http://127.0.0.1:9/x'))).toBe(true);
  expect(isLoopback(new URL('http://localhost/x'))).toBe(true);
  expect(isLoopback(new URL('http://[::1]:8/'))).toBe(true);
  expect(isLoopback(new URL('http://auth.example.com/'))).toBe(false);
});

describe('discoverResource', () => {
  /** A fetch that serves `documents` by URL and 404s the rest, recording what was asked. */
  function serving(documents: Record<string, unknown>): { fetch: AuthFetch; asked: string[] } {
    const asked: string[] = [];
    const fetch: AuthFetch = async (url) => {
      asked.push(url);
      const body = documents[url];
      return body === undefined ? new Response('not found', { status: 404 }) : Response.json(body);
    };
    return { fetch, asked };
  }
  const serverUrl = new URL('https://mcp.example.com/mcp');
  const signal = new AbortController().signal;

  test("the challenge's metadata URL first, then path-inserted, then root", async () => {
    const { fetch, asked } = serving({
      'https://mcp.example.com/.well-known/oauth-protected-resource': {
        resource: 'https://mcp.example.com',
        authorization_servers: ['https://auth.example.com'],
      },
    });
    const found = await discoverResource(
      { serverUrl, fetch, signal },
      'https://mcp.example.com/custom.json',
    );
    expect(asked).toEqual([
      'https://mcp.example.com/custom.json',
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    ]);
    expect(found).toMatchObject({
      resource: 'https://mcp.example.com',
      authorizationServers: ['https://auth.example.com'],
    });
  });

  test('metadata naming another resource is refused before anything else happens', async () => {
    const { fetch } = serving({
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp': {
        resource: 'https://evil.example.com/mcp',
        authorization_servers: ['https://auth.example.com'],
      },
    });
    const error = await discoverResource({ serverUrl, fetch, signal }, undefined).catch((e) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error.reason).toBe('resource_mismatch');
  });

  test('none found: undefined (a 2025-03-26 server)', async () => {
    const { fetch } = serving({});
    expect(await discoverResource({ serverUrl, fetch, signal }, undefined)).toBeUndefined();
  });
});
