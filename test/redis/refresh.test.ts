/**
 * One refresh for the whole fleet: several worker processes share OAuth state through Redis; the
 * access token has expired and the authorization server rotates refresh tokens. At the same
 * moment every worker needs the token: one takes the Redis lock and refreshes, the others wait,
 * then read the new token. Exactly one refresh request reaches the authorization server, and
 * every worker ends with the same new token.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  authKeys,
  createMcpClient,
  StoreUnavailableError,
  type TokenRecord,
} from '@toolwire/client';
import { aesGcmSecrets, createRedisStores } from '@toolwire/redis';
import { startReferenceServer } from '@toolwire/reference-server';
import { expect, test } from 'vitest';
import { startAuthorizationServer } from '../helpers/authorization-server.ts';
import { neededBy, service } from '../helpers/services.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { startWorker } from '../helpers/worker-process.ts';

const WORKER = new URL('./auth-worker.ts', import.meta.url);
const available = service('redis');
// The second test stops a Redis of its own.
const own = service('redis-server');
const REDIRECT = 'http://127.0.0.1:8976/callback';
const WORKERS = 4;
const digest = (token: unknown) =>
  createHash('sha256').update(String(token)).digest('base64url').slice(0, 12);

test(`${WORKERS} worker processes, one expired token, a rotating refresh token: one refresh request, one new token for all`, async (ctx) => {
  await using redis = await neededBy(ctx, available).start();
  await using as = await startAuthorizationServer();
  await using server = await startReferenceServer({
    protect: { authorizationServers: [as.issuer], scopesSupported: ['mcp:read', 'mcp:write'] },
  });
  const key = randomBytes(32).toString('hex');
  await using stores = createRedisStores({
    url: redis.url,
    secrets: aesGcmSecrets(key),
    timeoutMs: 5_000,
  });
  const tokensKey = authKeys.tokens(as.issuer, server.url);

  // A first worker signs in once, interactively; its tokens go to Redis.
  {
    await using first = createMcpClient(server.url, {
      listen: false,
      auth: { store: stores.auth, redirectUri: REDIRECT, authorize: as.user.authorize },
    });
    await first.callTool('echo', { text: 'signed in' });
  }
  const signedIn = (await stores.auth.get(tokensKey)) as TokenRecord;
  expect(signedIn.refreshToken).toBeTypeOf('string');
  // Later: the access token has expired.
  await stores.auth.set(tokensKey, { ...signedIn, expiresAt: Date.now() - 1_000 });
  const before = as.tokenRequests.length;

  const workers = Array.from({ length: WORKERS }, () =>
    startWorker(
      WORKER,
      [redis.url, server.url, as.issuer, REDIRECT],
      { TOOLWIRE_TEST_KEY: key },
      [],
      {
        stdin: true,
      },
    ),
  );
  try {
    await waitFor(() => workers.every((worker) => worker.events.some((e) => e['ready'])), 30_000);
    for (const worker of workers) worker.child.stdin!.end('go\n');
    const codes = await Promise.all(workers.map((worker) => worker.exited));
    expect(codes, workers.map((worker) => worker.stderr()).join('\n')).toEqual(
      Array(WORKERS).fill(0),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.kill()));
  }

  const made = as.tokenRequests.slice(before);
  expect(made.map((request) => request.grantType)).toEqual(['refresh_token']);
  expect(made[0]!.refreshToken).toBe(signedIn.refreshToken);
  const renewed = (await stores.auth.get(tokensKey)) as TokenRecord;
  expect(renewed.refreshToken).not.toBe(signedIn.refreshToken);
  const ended = workers.map((worker) => worker.events.find((e) => e['result']));
  for (const event of ended) {
    expect(event).toEqual({
      result: [{ type: 'text', text: 'with the fleet token' }],
      token: digest(renewed.accessToken),
    });
  }
  expect(as.user.authorizations).toHaveLength(1);
  console.log(
    `${WORKERS} workers, expired token: ${made.length} token request(s) (${made.map((r) => r.grantType).join(', ')}); every worker ended with token ${digest(renewed.accessToken)}`,
  );
  // A sign-in, an authorization server and four Node processes: more than the default 20 s on a
  // loaded machine.
}, 90_000);

test('Redis down: a call that needs the shared token fails with a typed error within its deadline', async (ctx) => {
  const redis = await neededBy(ctx, own).start();
  await using as = await startAuthorizationServer();
  await using server = await startReferenceServer({
    protect: { authorizationServers: [as.issuer], scopesSupported: ['mcp:read', 'mcp:write'] },
  });
  await using stores = createRedisStores({
    url: redis.url,
    secrets: aesGcmSecrets(randomBytes(32)),
    timeoutMs: 100,
  });
  await redis.close();
  await using client = createMcpClient(server.url, {
    listen: false,
    timeoutMs: 5_000,
    auth: { store: stores.auth, redirectUri: REDIRECT, authorize: as.user.authorize },
  });
  const error = await client.callTool('echo', { text: 'x' }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(StoreUnavailableError);
  expect(as.tokenRequests).toEqual([]);
});
