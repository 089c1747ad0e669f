import type { Dispatcher } from 'undici';
import { describe, expect, test } from 'vitest';
import { AuthorizationError } from '../core/errors.ts';
import type { HttpRequest, HttpResponse } from '../wire/transport/http.ts';
import { checkAuth, gateFor } from './gate.ts';

const dispatcher = {} as Dispatcher;
const signal = new AbortController().signal;
const at = (url: string): HttpRequest => ({ url, method: 'POST', headers: {}, signal });
const refusal = (status: number, challenge = ''): HttpResponse =>
  ({
    status,
    mediaType: 'application/json',
    header: (name: string) => (name === 'www-authenticate' ? challenge : undefined),
    body: undefined as never,
  }) as HttpResponse;

describe('gateFor', () => {
  test('no gate for static headers only', () => {
    expect(
      gateFor({
        url: 'https://a.test/mcp',
        headers: undefined,
        auth: undefined,
        dispatcher,
        maxResponseBytes: 1,
      }),
    ).toBeUndefined();
  });

  test('credentials go to the server origin and to no other', async () => {
    const gate = gateFor({
      url: 'https://a.test/mcp',
      headers: undefined,
      auth: 'tok',
      dispatcher,
      maxResponseBytes: 1,
    })!;
    expect(await gate.headers(at('https://a.test/mcp'))).toEqual({ authorization: 'Bearer tok' });
    expect(await gate.headers(at('https://a.test/messages?session=1'))).toEqual({
      authorization: 'Bearer tok',
    });
    expect(await gate.headers(at('https://b.test/mcp'))).toEqual({});
    expect(await gate.headers(at('http://a.test/mcp'))).toEqual({});
    expect(await gate.refused(at('https://b.test/mcp'), refusal(401))).toBe(false);
  });

  test('a static token refused is an AuthorizationError; a plain 403 is left to the dialect', async () => {
    const gate = gateFor({
      url: 'https://a.test/mcp',
      headers: undefined,
      auth: 'tok',
      dispatcher,
      maxResponseBytes: 1,
    })!;
    await expect(gate.refused(at('https://a.test/mcp'), refusal(401))).rejects.toBeInstanceOf(
      AuthorizationError,
    );
    expect(await gate.refused(at('https://a.test/mcp'), refusal(403))).toBe(false);
    await expect(
      gate.refused(at('https://a.test/mcp'), refusal(403, 'Bearer error="insufficient_scope"')),
    ).rejects.toMatchObject({ reason: 'insufficient_scope' });
  });

  test('a provider of its own gets the refusal and decides', async () => {
    const seen: number[] = [];
    const gate = gateFor({
      url: 'https://a.test/mcp',
      headers: () => ({ 'x-trace': '1' }),
      auth: {
        headers: () => ({ authorization: 'Custom x' }),
        refused: ({ status }) => {
          seen.push(status);
          return status === 401;
        },
      },
      dispatcher,
      maxResponseBytes: 1,
    })!;
    expect(await gate.headers(at('https://a.test/mcp'))).toEqual({
      'x-trace': '1',
      authorization: 'Custom x',
    });
    // The application's headers are for the server, as its credentials are: none go elsewhere.
    expect(await gate.headers(at('https://elsewhere.test/'))).toEqual({});
    expect(await gate.refused(at('https://a.test/mcp'), refusal(401))).toBe(true);
    expect(await gate.refused(at('https://a.test/mcp'), refusal(403))).toBe(false);
    expect(seen).toEqual([401, 403]);
  });
});

describe('checkAuth', () => {
  test.each([
    [''],
    [42],
    [{ authorize: () => '' }],
    [{ redirectUri: 'http://127.0.0.1/cb' }],
    [{ grant: { type: 'password' }, client: { clientId: 'a' } }],
    [{ grant: { type: 'client_credentials' } }],
    [{ client: { clientId: '' }, grant: { type: 'client_credentials' } }],
    [{ clientMetadataUrl: 'http://app.test/client.json' }],
    [{ clientMetadataUrl: 'https://app.test/' }],
    [{ dpop: 'yes' }],
    [{ maxStepUps: -1 }],
  ])('%j is a TypeError', (auth) => {
    expect(() => checkAuth(auth)).toThrow(TypeError);
  });

  test.each([
    [undefined],
    ['token'],
    [() => 'token'],
    [{ headers: () => ({}) }],
    [{ authorize: async () => '', redirectUri: () => 'http://127.0.0.1/cb' }],
    [{ grant: { type: 'client_credentials' }, client: { clientId: 'a', clientSecret: 's' } }],
    [{ clientMetadataUrl: 'https://app.test/client.json', dpop: 'auto', maxStepUps: 0 }],
  ])('%j is fine', (auth) => {
    expect(() => checkAuth(auth)).not.toThrow();
  });
});
