/**
 * One worker of a fleet that shares its OAuth state through Redis: it calls a tool on a protected
 * server with the tokens another process stored, and prints a digest of the access token it ends
 * with. No user is at hand: a worker that needed to authorize anew would fail.
 */
import { createHash } from 'node:crypto';
import { authKeys, createMcpClient } from '@toolwire/client';
import { aesGcmSecrets, createRedisStores } from '@toolwire/redis';

const [redisUrl, serverUrl, issuer, redirectUri] = process.argv.slice(2);
const print = (event: object) => process.stdout.write(`${JSON.stringify(event)}\n`);
const digest = (token: unknown) =>
  createHash('sha256').update(String(token)).digest('base64url').slice(0, 12);

await using stores = createRedisStores({
  url: redisUrl!,
  secrets: aesGcmSecrets(process.env['TOOLWIRE_TEST_KEY'] ?? ''),
  timeoutMs: 5_000,
});
await using client = createMcpClient(serverUrl!, {
  listen: false,
  auth: {
    store: stores.auth,
    redirectUri: redirectUri!,
    authorize: () => {
      throw new Error('no user at hand in a worker');
    },
  },
});
// Every worker starts its call at the same moment: when the parent says go.
print({ ready: true });
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.pause();
const result = await client.callTool('echo', { text: 'with the fleet token' });
const tokens = await stores.auth.get(authKeys.tokens(issuer!, serverUrl!));
print({ result: result.content, token: digest(tokens?.['accessToken']) });
