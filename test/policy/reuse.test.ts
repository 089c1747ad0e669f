/**
 * Results worth reusing, counted by what the server executed: identical read-only calls share
 * one execution, a tool that is not both read-only and idempotent is never reused, and a
 * server's `cache_hint: "no-cache"` wins.
 */
import { createMcpClient, memoryPolicyStore, type PolicyNote } from '@toolwire/client';
import { expect, test } from 'vitest';
import { mcpServer, result, startFaultServer } from '../helpers/fault-server.ts';

const TOOLS = [
  {
    name: 'lookup',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true, idempotentHint: true },
  },
  // Read-only but not idempotent (a clock, say): never reused.
  { name: 'now', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'mutate', inputSchema: { type: 'object' }, annotations: { idempotentHint: true } },
  {
    name: 'fresh',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true, idempotentHint: true },
  },
  { name: 'named', inputSchema: { type: 'object' } },
];

async function countingServer() {
  const executed = new Map<string, number>();
  const server = await startFaultServer(
    mcpServer(async (message) => {
      if (message.method === 'tools/list') return result(message.id, { tools: TOOLS });
      if (message.method !== 'tools/call') return undefined;
      const name = message.params?.['name'] as string;
      executed.set(name, (executed.get(name) ?? 0) + 1);
      // Slow enough that identical calls overlap.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const answer: Record<string, unknown> = {
        content: [{ type: 'text', text: `${name} #${executed.get(name)}` }],
      };
      if (name === 'fresh') answer['_meta'] = { cache_hint: 'no-cache' };
      return result(message.id, answer);
    }),
  );
  return { server, executed };
}

test('two identical read-only calls: one execution, both get the result', async () => {
  const { server, executed } = await countingServer();
  await using _ = server;
  await using client = createMcpClient(server.url, { policy: { reuse: { ttlMs: 60_000 } } });
  const notes: PolicyNote[] = [];
  client.on('policy', (note) => notes.push(note));
  await client.listTools();
  const [a, b] = await Promise.all([
    client.callTool('lookup', { q: 1, r: 2 }),
    client.callTool('lookup', { r: 2, q: 1 }),
  ]);
  expect(executed.get('lookup')).toBe(1);
  expect(a).toEqual(b);
  expect(a).not.toBe(b);
  // Later, within the time to live: still the one execution; other arguments are another call.
  await client.callTool('lookup', { q: 1, r: 2 });
  expect(executed.get('lookup')).toBe(1);
  await client.callTool('lookup', { q: 2 });
  expect(executed.get('lookup')).toBe(2);
  expect(notes).toEqual([
    { kind: 'reused', tool: 'lookup', shared: true },
    { kind: 'reused', tool: 'lookup', shared: false },
  ]);
});

test('a tool that is not both read-only and idempotent is never reused', async () => {
  const { server, executed } = await countingServer();
  await using _ = server;
  await using client = createMcpClient(server.url, { policy: { reuse: { ttlMs: 60_000 } } });
  await client.listTools();
  await Promise.all([client.callTool('now'), client.callTool('now')]);
  await Promise.all([client.callTool('mutate'), client.callTool('mutate')]);
  expect(executed.get('now')).toBe(2);
  expect(executed.get('mutate')).toBe(2);
});

test('the server\'s cache_hint "no-cache" wins over the policy', async () => {
  const { server, executed } = await countingServer();
  await using _ = server;
  await using client = createMcpClient(server.url, { policy: { reuse: { ttlMs: 60_000 } } });
  await client.listTools();
  await client.callTool('fresh');
  await client.callTool('fresh');
  expect(executed.get('fresh')).toBe(2);
});

test('a tool the application names is reused whatever it declares; without reuse nothing is', async () => {
  const { server, executed } = await countingServer();
  await using _ = server;
  await using named = createMcpClient(server.url, {
    policy: { reuse: { ttlMs: 60_000, tools: ['named'] } },
  });
  await named.callTool('named');
  await named.callTool('named');
  expect(executed.get('named')).toBe(1);
  await using plain = createMcpClient(server.url);
  await plain.callTool('lookup');
  await plain.callTool('lookup');
  expect(executed.get('lookup')).toBe(2);
});

test('a misspelt policy option is a TypeError naming it', () => {
  expect(() =>
    createMcpClient('http://127.0.0.1:1/mcp', { policy: { concurency: 4 } as never }),
  ).toThrow(/unknown option `policy.concurency`; did you mean `policy.concurrency`/);
  expect(() =>
    createMcpClient('http://127.0.0.1:1/mcp', { policy: { reuse: { ttl: 5 } } as never }),
  ).toThrow(/policy.reuse.ttl/);
  expect(() => createMcpClient('http://127.0.0.1:1/mcp', { policy: { concurrency: 0 } })).toThrow(
    TypeError,
  );
});

test('clients of one store share results only within a partition; a call with its own headers keeps its own', async () => {
  const { server, executed } = await countingServer();
  await using _ = server;
  const store = memoryPolicyStore();
  const forUser = (partition: string) =>
    createMcpClient(server.url, { policy: { reuse: { ttlMs: 60_000, partition }, store } });
  await using alice = forUser('alice');
  await using aliceAgain = forUser('alice');
  await using bob = forUser('bob');
  for (const client of [alice, aliceAgain, bob]) await client.listTools();
  await alice.callTool('lookup', { q: 1 });
  await aliceAgain.callTool('lookup', { q: 1 });
  expect(executed.get('lookup')).toBe(1);
  // Another user's client never gets alice's result.
  await bob.callTool('lookup', { q: 1 });
  expect(executed.get('lookup')).toBe(2);
  // Headers of its own: the call may act for someone else, so nothing kept answers it.
  await alice.callTool('lookup', { q: 1 }, { headers: { 'x-on-behalf-of': 'carol' } });
  expect(executed.get('lookup')).toBe(3);
});

test('a call that joins another in flight still ends on its own deadline', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await using server = await startFaultServer(
    mcpServer(async (message) => {
      if (message.method === 'tools/list') return result(message.id, { tools: TOOLS });
      if (message.method !== 'tools/call') return undefined;
      await held;
      return result(message.id, { content: [{ type: 'text', text: 'late' }] });
    }),
  );
  await using client = createMcpClient(server.url, { policy: { reuse: { ttlMs: 60_000 } } });
  await client.listTools();
  const first = client.callTool('lookup', { q: 1 }, { timeoutMs: 30_000 });
  const joined = client.callTool('lookup', { q: 1 }, { timeoutMs: 200 });
  await expect(joined).rejects.toMatchObject({ code: 'TIMEOUT' });
  const controller = new AbortController();
  const aborted = client.callTool('lookup', { q: 1 }, { signal: controller.signal });
  controller.abort();
  await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
  release();
  expect((await first).content).toEqual([{ type: 'text', text: 'late' }]);
});
