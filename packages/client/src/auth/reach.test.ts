import { describe, expect, test } from 'vitest';
import { AuthorizationError } from '../core/errors.ts';
import { checkEndpoints, reachable } from './discovery.ts';
import { addressKind, refusalToReach } from './reach.ts';

describe('addressKind: literal addresses as the URL parser writes them', () => {
  test.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://0.0.0.0/', 'loopback'],
    ['http://localhost/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://10.1.2.3/', 'private'],
    ['http://172.16.0.1/', 'private'],
    ['http://172.31.255.255/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://100.64.0.1/', 'private'],
    ['http://[fd00::1]/', 'private'],
    ['http://[fc12:3456::9]/', 'private'],
    ['http://169.254.169.254/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[::ffff:10.0.0.1]/', 'private'],
    ['http://[::ffff:169.254.169.254]/', 'link-local'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://172.32.0.1/', undefined],
    ['http://8.8.8.8/', undefined],
    ['http://[2001:db8::1]/', undefined],
    ['http://[::ffff:8.8.8.8]/', undefined],
    ['http://auth.example.com/', undefined],
  ])('%s is %s', (url, kind) => {
    expect(addressKind(new URL(url).hostname)).toBe(kind);
  });
});

describe('refusalToReach', () => {
  const remote = new URL('https://mcp.example.com/mcp');
  const local = new URL('http://127.0.0.1:8080/mcp');
  const lan = new URL('https://10.0.0.5/mcp');

  test.each([
    ['https://auth.example.com/authorize', remote],
    ['http://127.0.0.1:9/authorize', local],
    ['http://localhost:9/x', local],
    ['https://10.0.0.6/authorize', lan],
    ['https://192.168.0.2/x', lan],
  ])('%s may be reached from %s', (url, server) => {
    expect(refusalToReach(new URL(url), server)).toBeUndefined();
  });

  test.each([
    ['file:///etc/passwd', remote, /file: is not https:/],
    ['javascript:alert(1)', remote, /javascript: is not https:/],
    ['smb://attacker/share', remote, /smb: is not https:/],
    ['ms-msdt:/id PCWDiagnostic', remote, /ms-msdt: is not https:/],
    ['http://auth.example.com/', remote, /http: is not https:/],
    ['http://10.0.0.1/', lan, /http: is not https:/],
    ['https://169.254.169.254/latest/meta-data', remote, /link-local address/],
    ['https://192.168.1.1/admin', remote, /private address/],
    ['https://[fd00::1]/', remote, /private address/],
    ['http://127.0.0.1:6379/', remote, /loopback address/],
  ])('%s is refused from %s', (url, server, reason) => {
    expect(refusalToReach(new URL(url), server)).toMatch(reason);
  });
});

describe('the URLs discovery reaches for', () => {
  const server = new URL('https://mcp.example.com/mcp');

  test('a relative resource_metadata is resolved against the server; an endpoint must be absolute', () => {
    expect(reachable('/.well-known/x', 'resource_metadata', server, server).href).toBe(
      'https://mcp.example.com/.well-known/x',
    );
    expect(() => reachable('/authorize', 'authorization_endpoint', server)).toThrow(
      /not an absolute URL/,
    );
  });

  test('metadata naming an endpoint of another scheme fails typed, and says which', () => {
    const metadata = {
      issuer: 'https://auth.example.com',
      authorization_endpoint: 'file:///C:/Windows/System32/calc.exe',
      token_endpoint: 'https://auth.example.com/token',
    };
    let error: unknown;
    try {
      checkEndpoints(metadata, server);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({ reason: 'discovery' });
    expect((error as Error).message).toMatch(/authorization_endpoint file:.*not https:/);
  });

  test('every endpoint is checked, a non-string one included', () => {
    for (const bad of [
      { registration_endpoint: 'http://169.254.169.254/' },
      { token_endpoint: 42 },
      { jwks_uri: 'ftp://x/' },
    ]) {
      expect(() => checkEndpoints(bad, server)).toThrow(AuthorizationError);
    }
    expect(() =>
      checkEndpoints(
        {
          authorization_endpoint: 'https://a.example.com/x',
          other: 'file:',
          userinfo_endpoint: null,
        },
        server,
      ),
    ).not.toThrow();
  });
});

test("the server's own origin is reachable, whatever its scheme and address", () => {
  const server = new URL('http://10.0.0.5:8080/mcp');
  expect(refusalToReach(new URL('http://10.0.0.5:8080/.well-known/x'), server)).toBeUndefined();
  expect(refusalToReach(new URL('http://10.0.0.5:8081/'), server)).toMatch(/http: is not/);
});

test('a blob: URL carrying the server origin is still another scheme', () => {
  const server = new URL('https://mcp.example.com/mcp');
  expect(new URL('blob:https://mcp.example.com/x').origin).toBe(server.origin);
  expect(refusalToReach(new URL('blob:https://mcp.example.com/x'), server)).toMatch(/blob: is not/);
});

test.each([
  ['http://localhost./x', 'loopback'],
  ['http://app.localhost/x', 'loopback'],
  ['http://127.0.0.1./x', 'loopback'],
])('%s is %s', (url, kind) => {
  expect(addressKind(new URL(url).hostname)).toBe(kind);
});
