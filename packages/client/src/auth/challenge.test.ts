import { describe, expect, test } from 'vitest';
import { challengedScopes, oauthChallenge, parseChallenges } from './challenge.ts';

describe('parseChallenges', () => {
  test('a Bearer challenge with quoted parameters, escapes and commas inside quotes', () => {
    const header =
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="files:read files:write", error="insufficient_scope", error_description="needs \\"write\\", sorry"';
    expect(parseChallenges(header)).toEqual([
      {
        scheme: 'bearer',
        params: {
          resource_metadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
          scope: 'files:read files:write',
          error: 'insufficient_scope',
          error_description: 'needs "write", sorry',
        },
      },
    ]);
  });

  test('several challenges, token values, a token68 and odd spacing', () => {
    const header = 'Basic realm="x", DPoP algs="ES256" ,error=use_dpop_nonce, Negotiate abc123==';
    expect(parseChallenges(header)).toEqual([
      { scheme: 'basic', params: { realm: 'x' } },
      { scheme: 'dpop', params: { algs: 'ES256', error: 'use_dpop_nonce' } },
      { scheme: 'negotiate', params: { token68: 'abc123==' } },
    ]);
    expect(oauthChallenge(parseChallenges(header))?.scheme).toBe('dpop');
  });

  test('nothing, or garbage, is no challenge rather than an exception', () => {
    expect(parseChallenges(undefined)).toEqual([]);
    expect(parseChallenges('')).toEqual([]);
    expect(parseChallenges('"unterminated')).toEqual([]);
    expect(parseChallenges('Bearer scope="unterminated')).toEqual([
      { scheme: 'bearer', params: { scope: 'unterminated' } },
    ]);
  });

  test('scopes split on any whitespace; none without a scope parameter', () => {
    expect(challengedScopes({ scheme: 'bearer', params: { scope: ' a  b\tc ' } })).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(challengedScopes({ scheme: 'bearer', params: {} })).toBeUndefined();
  });
});
