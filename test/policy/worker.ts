/**
 * One worker of the shared-policy tests, as its own process: a client whose policy store is in
 * Redis. Prints one JSON line per event.
 *
 *   lookup   call the read-only `lookup` tool; prints its text
 *   call     call `unsafe`; prints its text or the error's code and status, then whether Redis
 *            holds calls to the server now
 *   later    list the tools, print {"ready":true}, wait for a line on stdin, then `call`
 */
import { once } from 'node:events';
import { createMcpClient, isMcpError } from '@toolwire/client';
import { createRedisStores } from '@toolwire/redis';

const [redisUrl, serverUrl, prefix, job] = process.argv.slice(2);
const print = (event: object) => process.stdout.write(`${JSON.stringify(event)}\n`);

await using stores = createRedisStores({
  url: redisUrl!,
  secrets: 'plaintext',
  prefix: prefix!,
  timeoutMs: 5_000,
});
await using client = createMcpClient(serverUrl!, {
  listen: false,
  retry: { retries: 0 },
  policy: { concurrency: 2, reuse: { ttlMs: 60_000 }, store: stores.policy },
});
client.on('warning', (error) => print({ warning: error.message }));
client.on('policy', (note) => print({ policy: note.kind }));

const text = (content: unknown) => (content as [{ text: string }])[0].text;

async function call(): Promise<void> {
  try {
    print({ result: text((await client.callTool('unsafe')).content) });
  } catch (error) {
    if (!isMcpError(error)) throw error;
    print({ code: error.code, status: error.status });
  }
  // Commands on one connection run in order: this sees the hold the 429 wrote, if any.
  print({ held: (await stores.policy.take(client.url, undefined)).held });
}

switch (job) {
  case 'lookup':
    print({ result: text((await client.callTool('lookup', { q: 1 })).content) });
    break;
  case 'call':
    await call();
    break;
  case 'later':
    await client.listTools();
    print({ ready: true });
    await once(process.stdin.setEncoding('utf8'), 'data');
    // An open stdin would keep the worker alive once its call is done.
    process.stdin.destroy();
    await call();
    break;
  default:
    throw new Error(`unknown job ${String(job)}`);
}
