/**
 * A mistyped option is an error, not silence: an unknown key anywhere a user passes options (the
 * client, several servers, a call, the adapters, the Redis stores) is a TypeError naming it and
 * the closest known key, before anything is sent; keys that are the user's data pass through.
 */
import { mcpTools } from '@toolwire/ai-sdk';
import { createMcpClient, createMcpClients, isMcpError, type McpClient } from '@toolwire/client';
import { mcpStructuredTools } from '@toolwire/langchain';
import { createRedisStores } from '@toolwire/redis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { referenceStdio } from '../helpers/stdio.ts';

let client: McpClient;

beforeAll(async () => {
  client = createMcpClient(referenceStdio());
  await client.connect();
});

afterAll(async () => {
  await client?.close();
});

/** What `run` throws or rejects with: a TypeError, never a toolwire error. */
async function usage(run: () => unknown): Promise<string> {
  const error = await (async () => run())().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TypeError);
  expect(isMcpError(error)).toBe(false);
  return (error as Error).message;
}

const URL = 'http://127.0.0.1:9/mcp';
const loose = (value: unknown) => value as never;

test.each([
  [{ bogus: 1 }, /^unknown option `bogus`; the options here are `clientInfo`, /],
  [{ limits: { concurrency: 4 } }, /^unknown option `limits`;/],
  [{ cache: { results: 1 } }, /^unknown option `cache`;/],
  [{ timeoutMS: 5 }, /^unknown option `timeoutMS`; did you mean `timeoutMs`\?$/],
  [
    { retry: { maxDelayMS: 5 } },
    /^unknown option `retry.maxDelayMS`; did you mean `retry.maxDelayMs`\?$/,
  ],
])('createMcpClient(url, %j) throws', async (options, message) => {
  expect(await usage(() => createMcpClient(URL, loose(options)))).toMatch(message);
});

test('a local server: its target and its options', async () => {
  expect(
    await usage(() => createMcpClient(loose({ command: 'node', arg: ['x'] }), { listen: false })),
  ).toMatch(/^unknown option `arg`; did you mean `args`\?$/);
  // `env` holds variable names, the user's own.
  const local = createMcpClient({ command: 'node', env: { ANY_NAME: '1' } });
  await local.close();
});

test('several servers: the shared options, their own, and a server of its own', async () => {
  expect(await usage(() => createMcpClients({ a: URL }, loose({ serverTimeoutMS: 5 })))).toMatch(
    /^unknown option `serverTimeoutMS`; did you mean `serverTimeoutMs`\?$/,
  );
  expect(
    await usage(() => createMcpClients({ a: URL }, loose({ reconnect: { minDelay: 5 } }))),
  ).toMatch(/^unknown option `reconnect.minDelay`; did you mean `reconnect.minDelayMs`\?$/);
  expect(await usage(() => createMcpClients({ a: loose({ url: URL, dialects: 'mcp' }) }))).toBe(
    'server "a": unknown option `dialects`; did you mean `dialect`?',
  );
});

test("a call's options: each method's, and the user's own keys in `meta` and `headers`", async () => {
  expect(await usage(() => client.callTool('add', { a: 1, b: 2 }, loose({ timeoutMS: 5 })))).toBe(
    'unknown option `timeoutMS`; did you mean `timeoutMs`?',
  );
  expect(await usage(() => client.listTools(loose({ refrsh: true })))).toMatch(
    /did you mean `refresh`\?$/,
  );
  expect(await usage(() => client.ping(loose({ signl: undefined })))).toMatch(
    /did you mean `signal`\?$/,
  );
  expect(await usage(() => client.connect(loose({ timeout: 5 })))).toMatch(
    /^unknown option `timeout`/,
  );
  // Known keys, data inside: the call goes through, and the client goes on working.
  await expect(
    client.callTool(
      'add',
      { a: 1, b: 2 },
      { meta: { 'com.example/any': 1 }, onProgress: () => {} },
    ),
  ).resolves.toMatchObject({ isError: false });
  await expect(client.listTools({ refresh: true, forModel: true })).resolves.not.toHaveLength(0);
});

test('the adapters', async () => {
  expect(await usage(() => mcpTools(client, loose({ prefx: 'a_' })))).toBe(
    'unknown option `prefx`; did you mean `prefix`?',
  );
  expect(await usage(() => mcpStructuredTools(client, loose({ serverNam: 'a' })))).toBe(
    'unknown option `serverNam`; did you mean `serverName`?',
  );
  await expect(mcpTools(client, { prefix: 'a_' })).resolves.toBeDefined();
});

test('the Redis stores, before any connection is made', async () => {
  const client = { sendCommand: async () => null } as never;
  expect(
    await usage(() => createRedisStores(loose({ client, secrets: 'plaintext', handleTTLMs: 5 }))),
  ).toBe('unknown option `handleTTLMs`; did you mean `handleTtlMs`?');
});
