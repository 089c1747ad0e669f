/**
 * One agent worker, as its own process: a toolwire client whose handles and verdicts live in
 * Redis. The test starts it with a job and reads what it prints, one JSON line per event.
 *
 *   call   <tool> <args JSON>   call a tool; prints {"pending":…} when the server defers it
 *   redeem                      redeem every handle stored for the URL; prints each result
 *   list                        list the tools (the probe, when there is one, comes first)
 */
import { createMcpClient, type DialectChoice } from '@toolwire/client';
import { aesGcmSecrets, createRedisStores } from '@toolwire/redis';

const [redisUrl, serverUrl, dialect, job, ...rest] = process.argv.slice(2);
const print = (event: object) => process.stdout.write(`${JSON.stringify(event)}\n`);

await using stores = createRedisStores({
  url: redisUrl!,
  secrets: aesGcmSecrets(process.env['TOOLWIRE_TEST_KEY'] ?? ''),
  // Sharing is what these workers show, not the bound on a slow Redis (faults.test.ts does).
  timeoutMs: 5_000,
});
await using client = createMcpClient(serverUrl!, {
  handles: stores.handles,
  verdicts: stores.verdicts,
  dialect: (dialect ?? 'auto') as DialectChoice,
  listen: false,
});
client.on('warning', (error) => print({ warning: error.message }));

switch (job) {
  case 'call': {
    const [tool, args] = rest;
    const result = await client.callTool(tool!, JSON.parse(args ?? '{}'), {
      onStatus: (status) => {
        if (status.state === 'pending') print({ pending: status.handle?.kind });
      },
    });
    print({ result: result.content });
    break;
  }
  case 'redeem':
    for (const handle of await stores.handles.list({ url: client.url })) {
      print({ redeemed: (await client.redeem(handle)).content });
    }
    break;
  case 'list':
    print({ tools: (await client.listTools()).length, dialect: client.dialect });
    break;
  default:
    throw new Error(`unknown job ${String(job)}`);
}
