/**
 * One worker of the shared-pacing tests, as its own process: a client whose policy store is in
 * Redis. Prints one JSON line per event.
 *
 *   burst N   concurrency 2: print {"ready":true}, wait for a line on stdin, call `slow` N times at
 *             once; print {"done":N}
 *   rate N    rate 3 per 1000 ms, as `burst`
 *   crash     concurrency 2, calls capped at 1500 ms: call `hang` twice; print {"sent":true}, then
 *             wait to be killed
 *   after     concurrency 2, a call of 10 s at most: call `slow` once; print its text
 */
import { once } from 'node:events';
import { type CallPolicy, createMcpClient } from '@toolwire/client';
import { createRedisStores } from '@toolwire/redis';

const [redisUrl, serverUrl, prefix, job, count] = process.argv.slice(2);
const print = (event: object) => process.stdout.write(`${JSON.stringify(event)}\n`);

await using stores = createRedisStores({
  url: redisUrl!,
  secrets: 'plaintext',
  prefix: prefix!,
  timeoutMs: 5_000,
});
const policy: CallPolicy =
  job === 'rate'
    ? { rate: { requests: 3, intervalMs: 1_000 }, store: stores.policy }
    : { concurrency: 2, store: stores.policy };
// `after` fails on its own, well within the test's time, when the dead worker's slots never come back.
const capped =
  job === 'crash'
    ? { timeoutMs: 1_500, maxTimeoutMs: 1_500 }
    : job === 'after'
      ? { timeoutMs: 10_000 }
      : {};
await using client = createMcpClient(serverUrl!, {
  listen: false,
  retry: { retries: 0 },
  policy,
  ...capped,
});
client.on('warning', (error) => print({ warning: error.message }));

const text = (content: unknown) => (content as [{ text: string }])[0].text;

async function burst(): Promise<void> {
  await client.listTools();
  print({ ready: true });
  await once(process.stdin.setEncoding('utf8'), 'data');
  // An open stdin would keep the worker alive once its calls are done.
  process.stdin.destroy();
  const calls = Array.from({ length: Number(count) }, () => client.callTool('slow'));
  print({ done: (await Promise.all(calls)).length });
}

switch (job) {
  case 'burst':
  case 'rate':
    await burst();
    break;
  case 'crash': {
    await client.listTools();
    const calls = [client.callTool('hang'), client.callTool('hang')];
    print({ sent: true });
    await Promise.allSettled(calls);
    break;
  }
  case 'after':
    print({ result: text((await client.callTool('slow')).content) });
    break;
  default:
    throw new Error(`unknown job ${String(job)}`);
}
