/**
 * Held: what the Redis stores keep is of no use to whoever can read the Redis. After real OAuth
 * sign-ins through the built client (a pre-registered client with a secret, and a dynamically
 * registered one given a secret, signed in with a code), with negotiation verdicts kept there too, a raw Redis client
 * finds no key naming the server, the issuer or a client id, and no value holding an access
 * token, a refresh token or a client secret.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { createMcpClient } from '@toolwire/client';
import { aesGcmSecrets, createRedisStores } from '@toolwire/redis';
import { startReferenceServer } from '@toolwire/reference-server';
import { describe, expect, test } from 'vitest';
import { type Found, needs, type Redis, service } from '../helpers/services.ts';
import { sendJson, startAuthorizationServer } from './servers.ts';

/** A real Redis (REDIS_URL, else a redis-server this test starts), or the test skipped, saying why. */
const available = service('redis');
needs(available);

function redisForTest(): Promise<Redis> {
  return (available as Found<Redis>).start();
}

const PRESET_ID = 'held-preset-client-3f9a';
const PRESET_SECRET = 'held-preset-secret-7c1d';
const REGISTERED_ID = 'held-registered-client-b24e';
const REGISTERED_SECRET = 'held-registered-secret-e08f';
const ACCESS = 'held-access-token-5a6b';
const REFRESH = 'held-refresh-token-9d2c';

describe('the Redis stores', () => {
  test('keys hashed, values sealed: no server, issuer or client id in a key; no token or secret in a value', async () => {
    await using redis = await redisForTest();
    const prefix = `held-${randomBytes(4).toString('hex')}:`;
    await using stores = createRedisStores({
      url: redis.url,
      secrets: aesGcmSecrets(randomBytes(32)),
      timeoutMs: 5_000,
      prefix,
    });
    await using as = await startAuthorizationServer(
      (origin) => ({
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        authorization_endpoint: `${origin}/authorize`,
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      }),
      (_request, res) =>
        sendJson(res, 200, {
          access_token: ACCESS,
          token_type: 'Bearer',
          expires_in: 3600,
          refresh_token: REFRESH,
        }),
      {
        client_id: REGISTERED_ID,
        client_secret: REGISTERED_SECRET,
        token_endpoint_auth_method: 'client_secret_basic',
      },
    );
    const protect = {
      authorizationServers: [as.origin],
      verify: (token: string) => (token === ACCESS ? { scopes: [] } : undefined),
    };
    await using preset = await startReferenceServer({ dualEra: true, protect });
    await using registered = await startReferenceServer({ dualEra: true, protect });

    {
      await using client = createMcpClient(preset.url, {
        verdicts: stores.verdicts,
        auth: {
          grant: { type: 'client_credentials' },
          client: { clientId: PRESET_ID, clientSecret: PRESET_SECRET },
          store: stores.auth,
        },
      });
      expect((await client.listTools()).length).toBeGreaterThan(0);
    }
    {
      await using client = createMcpClient(registered.url, {
        verdicts: stores.verdicts,
        auth: {
          redirectUri: 'http://127.0.0.1:1/callback',
          authorize: async (url) =>
            `http://127.0.0.1:1/callback?code=held-code&state=${url.searchParams.get('state') ?? ''}`,
          store: stores.auth,
        },
      });
      expect((await client.listTools()).length).toBeGreaterThan(0);
    }
    expect(as.received.some((request) => request.path === '/register')).toBe(true);

    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const keys = await raw.keys(`${prefix}*`);
      // Tokens, registration, issuer pin, discovery and verdicts: all were kept.
      expect(keys.length).toBeGreaterThanOrEqual(6);
      const named = [
        preset.url,
        registered.url,
        new URL(preset.url).host,
        new URL(registered.url).host,
        as.origin,
        new URL(as.origin).host,
        PRESET_ID,
        REGISTERED_ID,
      ];
      const secrets = [ACCESS, REFRESH, PRESET_SECRET, REGISTERED_SECRET];
      const stored = await Promise.all(
        keys.map(async (key) => ({ key, value: await storedText(raw, key) })),
      );
      const values = stored.map(({ key, value }) => `${key} ${value}`).join('\n');
      for (const secret of secrets) expect(values).not.toContain(secret);
      for (const { key, value } of stored) {
        for (const name of named) expect(key).not.toContain(name);
        // OAuth records are sealed whole: not even where they came from shows.
        if (key.startsWith(`${prefix}auth:`)) {
          for (const name of named) expect(value, key).not.toContain(name);
        }
      }
      await raw.del(keys);
    } finally {
      await raw.close();
    }
  });
});

/** What of a node-redis client reading the stores takes. */
interface RawRedis {
  type(key: string): Promise<string>;
  get(key: string): Promise<unknown>;
  hGetAll(key: string): Promise<unknown>;
  lRange(key: string, start: number, stop: number): Promise<unknown>;
  sMembers(key: string): Promise<unknown>;
  zRange(key: string, start: number, stop: number): Promise<unknown>;
}

/** Whatever a key holds, as text, for each type the stores could use. */
async function storedText(raw: RawRedis, key: string): Promise<string> {
  const type = await raw.type(key);
  switch (type) {
    case 'string':
      return String(await raw.get(key));
    case 'hash':
      return JSON.stringify(await raw.hGetAll(key));
    case 'list':
      return JSON.stringify(await raw.lRange(key, 0, -1));
    case 'set':
      return JSON.stringify(await raw.sMembers(key));
    case 'zset':
      return JSON.stringify(await raw.zRange(key, 0, -1));
    default:
      return `(a ${type})`;
  }
}
