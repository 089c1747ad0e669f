/**
 * What the caller passes to a call is checked before anything is sent: a wrong limit, signal,
 * callback, tool name or arguments is a TypeError naming it (never a plain TypeError from deep
 * inside, an immediate timeout or a warning from Node's timers), and the client goes on working.
 */
import { createMcpClient, isMcpError, type McpClient } from '@toolwire/client';
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

const bad: Array<[string, () => Promise<unknown>, RegExp]> = [
  [
    'timeoutMs: a string',
    () => client.callTool('add', { a: 1, b: 2 }, { timeoutMs: 'soon' as unknown as number }),
    /`timeoutMs` to be a positive number, got soon/,
  ],
  [
    'timeoutMs: negative',
    () => client.callTool('add', { a: 1, b: 2 }, { timeoutMs: -5 }),
    /`timeoutMs` to be a positive number, got -5/,
  ],
  [
    'maxTimeoutMs: NaN',
    () => client.listTools({ maxTimeoutMs: Number.NaN }),
    /`maxTimeoutMs` to be a positive number, got NaN/,
  ],
  [
    'signal: a plain object',
    () => client.callTool('add', { a: 1, b: 2 }, { signal: {} as AbortSignal }),
    /`signal` to be an AbortSignal, got Object/,
  ],
  [
    'onProgress: a number',
    () => client.callTool('add', { a: 1, b: 2 }, { onProgress: 3 as unknown as () => void }),
    /`onProgress` to be a function, got number/,
  ],
  [
    'a tool name that is a number',
    () => client.callTool(42 as unknown as string),
    /expected a tool name, got number/,
  ],
  ['an empty tool name', () => client.callTool(''), /expected a tool name, got an empty string/],
  [
    'arguments that are an array',
    () => client.callTool('add', [1, 2] as unknown as Record<string, never>),
    /arguments of "add" as an object, got an array/,
  ],
];

test.each(bad)('%s is a TypeError naming it, and nothing is sent', async (_, call, message) => {
  const error = await call().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TypeError);
  expect(isMcpError(error)).toBe(false);
  expect((error as Error).message).toMatch(message);
  // The client is as it was: the next call works.
  await expect(client.callTool('add', { a: 2, b: 3 })).resolves.toMatchObject({ isError: false });
});

test('an AbortSignal from elsewhere (any object that behaves as one) is taken', async () => {
  const controller = new AbortController();
  const foreign = {
    get aborted() {
      return controller.signal.aborted;
    },
    get reason() {
      return controller.signal.reason;
    },
    addEventListener: controller.signal.addEventListener.bind(controller.signal),
    removeEventListener: controller.signal.removeEventListener.bind(controller.signal),
  } as unknown as AbortSignal;
  await expect(
    client.callTool('add', { a: 2, b: 3 }, { signal: foreign, timeoutMs: 5_000 }),
  ).resolves.toMatchObject({ isError: false });
});
